import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 channel with WebSocket upgrade, plus the connection's deadlines
/// (`ConnectionClock`), `RequestLineCheck` and `HTTPRequestGuard`. Everything else is Hummingbird's own.
struct GuardedHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    let base: HTTP1WebSocketUpgradeChannel
    let settings: ConnectionSettings
    let webSocketPaths: Set<String>

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let clock = ConnectionClock(settings: settings)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(ConnectionActivityHandler(clock: clock), position: .first)
            try pipeline.addHandler(RequestLineCheck(clock: clock), position: .first)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(
                HTTPRequestGuard(clock: clock, webSocketPaths: webSocketPaths), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: QuietUpgradeFailures.wrapping(logger))
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with WebSocket upgrade on `webSocketRouter`'s routes, with the connection limits
    /// of `settings`.
    static func guardedHTTP1<WebSocketRouter: HTTPResponderBuilder>(
        webSocketRouter: WebSocketRouter, webSocketPaths: Set<String>, settings: ConnectionSettings
    ) -> HTTPServerBuilder where WebSocketRouter.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        return HTTPServerBuilder { responder in
            GuardedHTTPChannel(
                base: HTTP1WebSocketUpgradeChannel(
                    responder: responder, webSocketResponder: webSocketResponder, configuration: .init()),
                settings: settings, webSocketPaths: webSocketPaths)
        }
    }
}
