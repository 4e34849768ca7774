import NIOCore
import NIOHTTP1

/// Right after the HTTP decoder, before Hummingbird's upgrade handling:
///
/// - Answers a request that is not valid HTTP (a garbage request line, an unknown method, a bad
///   or doubled Content-Length, Content-Length with chunked encoding, a bad chunk size) at once
///   with 400 (501 for an unknown method) and closes. Without it the first request's parse error
///   reached no one: no answer, and the connection stayed open.
/// - Lets only the WebSocket routes upgrade: an `Upgrade` header elsewhere (`GET /healthz`
///   with `Upgrade: websocket`) is dropped, so the request is answered as the plain request it is.
/// - Tells the connection's clock when a request has been read and when its answer is written.
final class HTTPRequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let clock: ConnectionClock
    private let webSocketPaths: Set<String>
    /// An answer's head is written and its end is not: nothing else may be written in between.
    private var answering = false
    private var closeAfterAnswer = false

    init(clock: ConnectionClock, webSocketPaths: Set<String>) {
        self.clock = clock
        self.webSocketPaths = webSocketPaths
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head) where head.headers.contains(name: "upgrade"):
            if webSocketPaths.contains(Self.path(of: head.uri)) {
                // From here the connection may carry WebSocket frames, which this handler can't
                // read: it steps aside, and the socket's own pings keep time.
                clock.becameWebSocket()
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            Self.dropUpgrade(from: &head.headers)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .head, .body:
            context.fireChannelRead(data)
        case .end:
            clock.requestRead()
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.status.code >= 200 { answering = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            answering = false
            clock.answerWritten()
            guard closeAfterAnswer else {
                context.write(data, promise: promise)
                return
            }
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // The decoder can't go on after a parse error: whatever happens, this connection ends.
        if answering {
            // An answer is half written; let it finish (the handler reading the body learns of the
            // error), then close. If it never finishes, close anyway.
            closeAfterAnswer = true
            context.fireErrorCaught(error)
            context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: .seconds(5)) {
                context.close(promise: nil)
            }
            return
        }
        let status: HTTPResponseStatus = parseError == .invalidMethod ? .notImplemented : .badRequest
        let body = Self.errorBody(status == .notImplemented ? "This server does not know that method." : "The request is not valid HTTP.")
        let headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"), ("Content-Length", String(body.readableBytes)),
            ("Connection", "close"),
        ])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolatedUnsafeUnchecked().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// `/v1/live?token=…` → `/v1/live`.
    static func path(of uri: String) -> String {
        String(uri.prefix { $0 != "?" && $0 != "#" })
    }

    /// Removes `Upgrade` and the `upgrade` token of `Connection`, keeping the rest (`keep-alive`).
    static func dropUpgrade(from headers: inout HTTPHeaders) {
        headers.remove(name: "upgrade")
        let kept = headers["connection"].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0.lowercased() != "upgrade" }
        headers.remove(name: "connection")
        if !kept.isEmpty { headers.add(name: "connection", value: kept.joined(separator: ", ")) }
    }

    /// The `/v1` error body; clients of `/api` read any 4xx without a body they know as a failure.
    private static func errorBody(_ message: String) -> ByteBuffer {
        ByteBuffer(string: #"{"error":{"code":"bad_request","message":"\#(message)"}}"#)
    }
}
