import Hummingbird
import HummingbirdWebSocket
import KithCore

/// `GET /v1/live` (SYNC.md): the WebSocket that nudges a user's devices when data they can read
/// changes. The upgrade is always accepted; a missing or bad token is answered on the socket with
/// an `unauthorized` error message and a close, so browsers (which cannot read a refused upgrade's
/// status) and header-less clients learn the reason the same way.
struct LiveController {
    let accounts: AccountService
    let rules: SyncRules
    let hub: LiveHub
    let settings: LiveSettings

    static let path = "v1/live"

    /// The router the WebSocket upgrade consults. It is separate from the API router so an upgrade
    /// request to any other path never runs an API handler just to be turned down.
    func webSocketRouter() -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.ws(RouterPath(Self.path)) { inbound, outbound, context in
            let socket = LiveSocket(
                accounts: accounts, rules: rules, hub: hub, settings: settings, outbound: outbound,
                logger: context.logger)
            try await socket.run(authorization: context.request.headers[.authorization], inbound: inbound)
        }
        return router
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
