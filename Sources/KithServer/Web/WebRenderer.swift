import Foundation
import Hummingbird
import Mustache
import NIOCore

/// Renders the web app's Mustache pages (Templates/ in the bundle) into HTML responses.
struct WebRenderer: Sendable {
    let library: MustacheLibrary
    /// The tiles the Contacts pages' maps show (nil: maps off); their origin is the one image
    /// origin the pages' content security policy allows besides their own.
    let mapTiles: MapTiles?
    /// Every page's headers, with that policy.
    let headers: HTTPFields

    init(library: MustacheLibrary, mapTiles: MapTiles?) {
        self.library = library
        self.mapTiles = mapTiles
        headers = WebSecurityHeaders.page(imageOrigin: mapTiles?.origin)
    }

    static func load(mapTiles: MapTiles?) async throws -> WebRenderer {
        guard let directory = Bundle.module.url(forResource: "Templates", withExtension: nil) else {
            throw WebRendererError("the web templates are missing from the KithServer bundle")
        }
        return WebRenderer(library: try await MustacheLibrary(directory: directory.path), mapTiles: mapTiles)
    }

    static var staticDirectory: String? {
        Bundle.module.url(forResource: "Static", withExtension: nil)?.path
    }

    /// Renders `model` through its template, with the keys every page has around it.
    /// `unreadNotices`: the count the header shows next to Family (the Family pages give it).
    func page<Model: PageModel>(
        _ model: Model, title: String, context: AppRequestContext, status: HTTPResponse.Status = .ok,
        unreadNotices: UnreadNotices? = nil
    ) throws -> Response {
        let rendered = RenderedPage(model, title: title, context: context, unreadNotices: unreadNotices)
        guard let html = library.render(rendered, withTemplate: Model.template) else {
            throw WebRendererError("no template named \(Model.template)")
        }
        var headers = headers
        headers[.contentType] = "text/html; charset=utf-8"
        if let user = context.user { headers[OfflineAccount.header] = OfflineAccount.mark(of: user.id) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

extension WebRenderer {
    /// An error as a page, with the error's status and headers (Retry-After).
    /// A 404 says so in its title ("Page not found"), signed in or not.
    func errorPage(_ error: AppError, context: AppRequestContext) throws -> Response {
        let title = error.status == .notFound ? "Page not found" : "Something went wrong"
        var response = try page(
            ErrorModel(error: error.detail.message), title: title, context: context, status: error.status)
        response.headers.append(contentsOf: error.headers)
        return response
    }

    /// The answer to a form whose session ended before it arrived: nothing was saved, and the way
    /// to sign in and get back to the page it came from.
    func sessionEndedPage(signIn: String, context: AppRequestContext) throws -> Response {
        let model = ErrorModel(
            error: "Your session ended, so this was not saved. Sign in again to go back to the page you were on.",
            action: .init(address: signIn, label: "Sign in again"))
        return try page(model, title: "Your session ended", context: context, status: .unauthorized)
    }
}

struct WebRendererError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Headers every page carries: scripts and styles only from this origin, no framing, and a Referer
/// only to this origin (a reset link's token must not leak to another site, nor a contact's page to
/// the tile server; the service worker reads it to know which page a form sent offline came from).
enum WebSecurityHeaders {
    static let all: HTTPFields = page(imageOrigin: nil)

    /// `imageOrigin`: the map tile server's `scheme://host[:port]`, the one other place images
    /// may come from (`MapTiles` checked it holds nothing but an origin).
    static func page(imageOrigin: String?) -> HTTPFields {
        let images = ["'self'", "data:", imageOrigin].compactMap { $0 }.joined(separator: " ")
        return [
            .contentSecurityPolicy:
                "default-src 'self'; script-src 'self'; style-src 'self'; img-src \(images); frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
            .contentTypeOptions: "nosniff",
            .referrerPolicy: "same-origin",
            .frameOptions: "DENY",
            .cacheControl: "no-store",
        ]
    }
}
