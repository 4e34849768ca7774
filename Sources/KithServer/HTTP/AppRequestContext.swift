import Foundation
import Hummingbird
import KithCore
import NIOCore

/// Per-request state shared by middleware and handlers.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by `BearerAuthMiddleware` (API) or the web session middleware (pages).
    public var user: AuthenticatedUser?
    /// The browser's CSRF token, set by the web session middleware on pages.
    public var csrfToken: String?
    /// Set when `/api` was called by the web app with the session cookie instead of a bearer token:
    /// Monica's per-minute limit is for API clients, and one contact page makes several requests.
    public var isWebSessionRequest = false

    /// Who is calling, for limits per client address.
    public var remoteAddress: SocketAddress?

    /// The client's IP address as text (the socket's peer: behind a reverse proxy, the proxy's).
    var clientAddress: String { remoteAddress?.ipAddress ?? "unknown" }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// No route takes more than this; larger bodies are refused with 413 before any work is done.
    public var maxUploadSize: Int { SyncLimits.largestBody }

    public var requestDecoder: JSONDecoder { WireCoding.decoder() }
    public var responseEncoder: JSONEncoder { WireCoding.encoder() }

    /// The signed-in user, for routes behind an authenticating middleware.
    func requireUser() throws -> AuthenticatedUser {
        guard let user else { throw AppError.unauthorized }
        return user
    }
}
