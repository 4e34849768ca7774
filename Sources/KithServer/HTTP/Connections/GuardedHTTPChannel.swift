import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// Each HTTP/1.1 connection: Hummingbird's request handling, the upgrade of `/v1/live` to a live
/// socket, and Kith's guards: the connection's deadlines (`ConnectionClock`), `RequestLineCheck`
/// and `HTTPRequestGuard`. A live socket is a handler on the channel (`LiveSocket`), not a task:
/// once upgraded, the connection's task ends and the socket lives on its event loop (decision 91).
struct GuardedHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    /// What the first request made of the connection.
    enum Connection: Sendable {
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// An upgrade NIO's upgrader refused (a bad `Sec-WebSocket-Key` or version): answered 400.
        case failedUpgrade(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// A live socket, running on the channel.
        case live
    }

    struct Value: ServerChildChannelValue {
        let connection: EventLoopFuture<Connection>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let settings: ConnectionSettings
    let live: LiveController

    init(responder: @escaping HTTPChannelHandler.Responder, settings: ConnectionSettings, live: LiveController) {
        self.responder = Self.redirectingLateUpgrades(responder)
        self.settings = settings
        self.live = live
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let upgradeAttempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let live = live
            let upgrader = NIOTypedWebSocketServerUpgrader<Connection>(
                maxFrameSize: LiveSocket.maxMessageBytes,
                shouldUpgrade: { channel, _ in
                    // HTTPRequestGuard lets an Upgrade header through on the live socket's path only.
                    upgradeAttempted.value = true
                    return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
                },
                upgradePipelineHandler: { channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(live.socket(for: head))
                        return .live
                    }
                })
            let upgrades = NIOTypedHTTPServerUpgradeConfiguration<Connection>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return upgradeAttempted.value ? .failedUpgrade(http) : .http(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Connection>(upgradeConfiguration: upgrades)
            configuration.enablePipelining = false  // NIOAsyncChannel reads requests one at a time
            configuration.enableErrorHandling = false  // HTTPRequestGuard answers parse errors
            configuration.enableResponseHeaderValidation = false  // HTTP Types validate them already
            // Hummingbird's limits on a request's head (80 KiB of fields, 1,000 of them).
            let limits = HTTP1Channel.Configuration().httpDecoder
            configuration.decoderConfiguration.maxHeaderFieldSize = limits.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = limits.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = limits.maxHeaderFieldCount
            let pipeline = channel.pipeline.syncOperations
            let connection = try pipeline.configureUpgradableHTTPServerPipeline(configuration: configuration)
            let clock = ConnectionClock(settings: settings)
            try pipeline.addHandler(ConnectionActivityHandler(clock: clock), position: .first)
            try pipeline.addHandler(RequestLineCheck(clock: clock), position: .first)
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTPRequestGuard(clock: clock, webSocketPaths: [LiveController.path]), position: .after(decoder))
            return Value(connection: connection, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.connection.get() {
            case .http(let http): await handleHTTP(asyncChannel: http, logger: logger)
            case .failedUpgrade(let http): await refuseUpgrade(http, logger: logger)
            case .live: break
            }
        } catch {
            // A connection closed before its first request was read: what HTTPRequestGuard and
            // the deadlines do to bad or silent clients. Not worth more than a debug line each.
            logger.debug("Connection ended before a request", metadata: ["error": "\(error)"])
        }
    }

    /// An upgrade NIO's upgrader refused: 400 and close, as Hummingbird answers it.
    private func refuseUpgrade(_ http: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, logger: Logger) async {
        do {
            try await http.executeThenClose { _, outbound in
                let head = HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])
                try await outbound.write(contentsOf: [.head(head), .end(nil)])
            }
        } catch {
            logger.trace("Could not answer a refused upgrade: \(error)")
        }
    }

    /// NIO upgrades only a connection's first request. A later one asking to upgrade is sent to
    /// the same address with the connection closed, so the device asks again on a new one.
    private static func redirectingLateUpgrades(_ responder: @escaping HTTPChannelHandler.Responder)
        -> HTTPChannelHandler.Responder
    {
        struct RedirectedUpgrade: Error {}
        return { request, responseWriter, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                return try await responder(request, responseWriter, channel)
            }
            let location = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
            try await responseWriter.writeResponse(
                HTTPResponse(status: .temporaryRedirect, headerFields: [.connection: "close", .location: location]))
            throw RedirectedUpgrade()
        }
    }
}

extension HTTPServerBuilder {
    /// HTTP/1.1 with `/v1/live` upgraded to live sockets, with the connection limits of `settings`.
    static func guardedHTTP1(live: LiveController, settings: ConnectionSettings) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in GuardedHTTPChannel(responder: responder, settings: settings, live: live) }
    }
}
