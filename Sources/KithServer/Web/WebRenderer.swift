import Foundation
import Hummingbird
import Mustache
import NIOCore

/// Renders the web app's Mustache pages (Templates/ in the bundle) into HTML responses.
struct WebRenderer: Sendable {
    let library: MustacheLibrary

    static func load() async throws -> WebRenderer {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw WebRendererError("the web templates are missing from the KithServer bundle")
        }
        return WebRenderer(library: try await MustacheLibrary(directory: directory.path))
    }

    static var staticDirectory: String? {
        Bundle.module.url(forResource: "Static", withExtension: nil)?.path
    }

    /// Renders `template` with the page's own keys plus the keys every page has.
    func page(
        _ template: String, title: String, context: AppRequestContext, status: HTTPResponse.Status = .ok,
        values: [String: Any] = [:]
    ) throws -> Response {
        var object = values
        object["title"] = title
        object["csrf"] = context.csrfToken ?? ""
        if let user = context.user { object["user"] = ["email": user.email] }
        guard let html = library.render(object, withTemplate: template) else {
            throw WebRendererError("no template named \(template)")
        }
        var headers = WebSecurityHeaders.all
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

extension WebRenderer {
    /// An error as a page, with the error's status and headers (Retry-After).
    func errorPage(_ error: AppError, context: AppRequestContext) throws -> Response {
        var response = try page(
            "error", title: "Something went wrong", context: context, status: error.status,
            values: ["error": error.detail.message])
        response.headers.append(contentsOf: error.headers)
        return response
    }
}

struct WebRendererError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Headers every page carries: scripts and styles only from this origin, no framing, and no
/// Referer (a reset link's token must not leak to another site).
enum WebSecurityHeaders {
    static let all: HTTPFields = [
        .contentSecurityPolicy:
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
        .contentTypeOptions: "nosniff",
        .referrerPolicy: "no-referrer",
        .frameOptions: "DENY",
        .cacheControl: "no-store",
    ]
}
