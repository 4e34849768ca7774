import Foundation
import HTTPTypes
import Hummingbird
import KithCore
import Logging

/// WebDAV, CardDAV and CalDAV for the phone's own apps (docs/dav.md): a protocol adapter, mounted
/// at `/dav` and the two `/.well-known` addresses. Requests in, the apps' own reads and operations
/// out; nothing here bypasses an app's rules.
///
/// ```
/// /dav/                                   where discovery starts (current-user-principal)
/// /dav/principals/<user>/                 the account (addressbook-home-set, calendar-home-set)
/// /dav/addressbooks/<user>/contacts/      the account's contacts, one vCard each
/// /dav/calendars/<user>/family/           the family's reminders, one VTODO each
/// ```
struct DAVServer: HTTPResponder {
    typealias Context = AppRequestContext

    static let root = "/dav"
    static let wellKnown = ["/.well-known/carddav", "/.well-known/caldav"]
    /// Every path this server answers, for `MountMiddleware`.
    static let prefixes = [root] + wellKnown

    let accounts: AccountService
    let homes: DAVHomes
    let store: DAVItemStore
    let logger: Logger

    /// The methods every DAV resource here answers (`Allow`).
    static let methods = "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT"
    /// XML bodies (PROPFIND, REPORT) are property lists; a megabyte is generous.
    static let largestXMLBody = 1 << 20

    func respond(to request: Request, context: Context) async throws -> Response {
        do {
            return try await answer(request, context: context)
        } catch let error as DAVError {
            return error.response
        } catch let error as AppError {
            var refusal = DAVError(error.status, error.detail.message)
            refusal.headers = error.headers
            if error.status == .unauthorized { refusal.headers[.wwwAuthenticate] = Self.challenge }
            return refusal.response
        } catch {
            logger.error("DAV \(request.method) \(request.uri.path) failed: \(String(reflecting: error))")
            return DAVError(.internalServerError, "The server could not answer this request; nothing was changed.")
                .response
        }
    }

    static let challenge = #"Basic realm="Kith", charset="UTF-8""#

    private func answer(_ request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        if Self.wellKnown.contains(where: { path == $0 || path == $0 + "/" }) {
            // RFC 6764 §5: the client follows this to the context path, then asks for its principal.
            return Response(status: .movedPermanently, headers: [.location: Self.root + "/"])
        }
        if request.method == .options {
            // Answered without credentials: clients ask before they sign in (RFC 4918 §10.1).
            return Response(
                status: .ok,
                headers: [.dav: "1, 3, addressbook, calendar-access", .allow: Self.methods, .contentLength: "0"])
        }
        let user = try await authenticate(request, context: context)
        if ["MKCOL", "MKCALENDAR"].contains(request.method.rawValue) {
            throw DAVError.forbidden(
                "New address books and calendars cannot be made here: every account has its contacts, and every family its calendar, already.",
                precondition: DAVName.dav("resource-must-be-null"))
        }
        guard let target = try await DAVTarget.find(path: path, user: user, homes: homes) else {
            throw DAVError.notFound
        }
        let handler = DAVMethodHandler(user: user, target: target, store: store, request: request)
        switch request.method.rawValue {
        case "PROPFIND": return try await handler.propfind(body: try await xmlBody(request))
        case "REPORT":
            guard let body = try await xmlBody(request) else {
                throw DAVError(.badRequest, "A REPORT needs an XML body naming the report.")
            }
            return try await handler.report(body)
        case "PROPPATCH": return try await handler.proppatch(body: try await xmlBody(request))
        case "GET": return try await handler.get(withBody: true)
        case "HEAD": return try await handler.get(withBody: false)
        case "PUT": return try await handler.put(request)
        case "DELETE": return try await handler.delete(request)
        default:
            var refusal = DAVError(.methodNotAllowed, "\(request.method.rawValue) is not supported here.")
            refusal.headers[.allow] = Self.methods
            throw refusal
        }
    }

    /// HTTP Basic with the account's email and a personal access token (an app password).
    private func authenticate(_ request: Request, context: Context) async throws -> AuthenticatedUser {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("basic "),
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let credentials = String(data: decoded, encoding: .utf8), let colon = credentials.firstIndex(of: ":")
        else {
            var refusal = DAVError(
                .unauthorized,
                "Sign in with your account's email and an app password: a personal access token from Account → API tokens."
            )
            refusal.headers[.wwwAuthenticate] = Self.challenge
            throw refusal
        }
        return try await accounts.authenticateAppPassword(
            email: String(credentials[..<colon]), token: String(credentials[credentials.index(after: colon)...]),
            origin: SignInOrigin(address: context.clientAddress))
    }

    /// The request's XML body, nil when it has none; 413 past the limit, 400 when not XML.
    private func xmlBody(_ request: Request) async throws -> DAVXMLElement? {
        let bytes = try await DAVBody.read(request, limit: Self.largestXMLBody)
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else { return nil }
        do {
            return try XMLReader.parse(bytes)
        } catch {
            throw DAVError.badXML(error.message)
        }
    }
}

/// The collections an account has, by home: the apps provide them.
struct DAVHomes: Sendable {
    var addressBooks: @Sendable (AuthenticatedUser) async throws -> [any DAVCollection]
    var calendars: @Sendable (AuthenticatedUser) async throws -> [any DAVCollection]
}

/// Request bodies, read whole up to a limit.
enum DAVBody {
    static func read(_ request: Request, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await var chunk in request.body {
            guard bytes.count + chunk.readableBytes <= limit else {
                throw DAVError(
                    .contentTooLarge,
                    "The body is larger than this server takes (\(limit / 1024) KiB); nothing was changed.")
            }
            bytes += chunk.readBytes(length: chunk.readableBytes) ?? []
        }
        return bytes
    }
}

extension HTTPField.Name {
    static let dav = HTTPField.Name("DAV")!
    static let depth = HTTPField.Name("Depth")!
}
