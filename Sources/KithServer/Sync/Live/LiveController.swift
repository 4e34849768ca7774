import Foundation
import Hummingbird
import KithCore
import NIOHTTP1

/// `GET /v1/live` (docs/sync.md): the WebSocket that nudges a user's devices when data they can read
/// changes. The upgrade is always accepted; a missing or bad token is answered on the socket with
/// an `unauthorized` error message and a close, so browsers (which cannot read a refused upgrade's
/// status) and header-less clients learn the reason the same way.
struct LiveController {
    let services: LiveServices

    static let path = KithAPI.Sync.live.pattern

    /// A socket for an upgrade to `path` (`GuardedHTTPChannel` upgrades no other path).
    func socket(for head: HTTPRequestHead) -> LiveSocket {
        LiveSocket(
            services: services,
            opening: LiveOpening(
                authorization: head.headers.first(name: "authorization"), webSession: Self.webSession(head)))
    }

    /// The web app's session cookie, only when the page that opened the socket is from this server
    /// (its `Origin` names the host the request went to). The cookie is SameSite=Lax, which keeps
    /// other sites out but not other origins of the same site (another port, a sibling subdomain):
    /// without this check their pages could listen as the user. Several Origins: no cookie either.
    static func webSession(_ head: HTTPRequestHead) -> String? {
        guard let token = Cookies(from: head.headers["cookie"])[WebSessionMiddleware.sessionCookie]?.value,
            !token.isEmpty,
            let origin = head.headers["origin"].onlyElement, let authority = head.headers["host"].onlyElement,
            let components = URLComponents(string: origin), let originHost = components.host
        else { return nil }
        let originAuthority = originHost + (components.port.map { ":\($0)" } ?? "")
        guard originAuthority.lowercased() == authority.lowercased() else { return nil }
        return token
    }

    /// A plain GET (no WebSocket upgrade) on the API router: a clear 426 rather than a 404.
    func addRoutes(to router: Router<AppRequestContext>) {
        router.get(RouterPath(Self.path)) { _, _ -> Response in
            throw AppError(
                .upgradeRequired, .badRequest,
                "/v1/live is a WebSocket: connect with Upgrade: websocket (ws:// or wss://).",
                headers: [.upgrade: "websocket"])
        }
    }
}

extension Array {
    /// The element of a one-element array; nil for none or several.
    fileprivate var onlyElement: Element? { count == 1 ? first : nil }
}
