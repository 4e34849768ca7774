import Foundation
import NIOCore
import NIOHTTP1

/// Right after the HTTP decoder, before Hummingbird's upgrade handling:
///
/// - Answers a request that is not valid HTTP (a garbage request line, an unknown method, a bad
///   or doubled Content-Length, Content-Length with chunked encoding, a bad chunk size) with 400
///   (501 for an unknown method) and closes, right after the answers owed to the requests before
///   it (pipelined in the same packet). Without it the first request's parse error reached no
///   one: no answer, and the connection stayed open.
/// - Answers `CONNECT` 405 at once, whole, and closes: the decoder reads nothing after a tunnel's
///   head, so an answer without a length kept the client waiting until the idle timeout.
/// - Lets only well-formed WebSocket upgrades of the WebSocket routes through (`GET`, HTTP/1.1,
///   `Connection: upgrade`, `Upgrade: websocket`, version 13, a 16-byte key). An `Upgrade` header
///   anywhere else (`GET /healthz` with `Upgrade: websocket`, a `POST /v1/live` asking to upgrade,
///   a key missing) is dropped, so the request is answered as the plain request it is (405, 426).
/// - Tells the connection's clock when a request has been read and when its answer is written.
final class HTTPRequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let clock: ConnectionClock
    private let webSocketPaths: Set<String>
    /// Requests read whole whose answers are not written yet (HTTP/1.1 answers in order).
    private var unanswered = 0
    /// A request's head has arrived and its end has not.
    private var reading = false
    /// The request being read was answered already (a 413 before its body ended).
    private var readingAnswered = false
    /// An answer's head is written and its end is not: nothing else may be written in between.
    private var answering = false
    /// A parse error's answer (or a refused method's), waiting for the answers owed before it.
    private var pendingRefusal: HTTPResponseStatus?
    /// The request was refused at its head: nothing more of this connection is read.
    private var discarding = false

    init(clock: ConnectionClock, webSocketPaths: Set<String>) {
        self.clock = clock
        self.webSocketPaths = webSocketPaths
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !discarding else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            reading = true
            readingAnswered = false
            if head.method == .CONNECT {
                discarding = true
                refuse(.methodNotAllowed, context)
                return
            }
            guard head.headers.contains(name: "upgrade") else {
                context.fireChannelRead(data)
                return
            }
            if webSocketPaths.contains(Self.path(of: head.uri)), Self.isWebSocketUpgrade(head) {
                // From here the connection may carry WebSocket frames, which this handler can't
                // read: it steps aside, and the socket's own pings keep time.
                clock.becameWebSocket()
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                return
            }
            Self.dropUpgrade(from: &head.headers)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            reading = false
            if !readingAnswered { unanswered += 1 }
            clock.requestRead(answered: readingAnswered)
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
            // Answers come in order: this one is the oldest request's, or an early answer to the
            // request still being read.
            var owedOneLess = true
            if unanswered > 0 {
                unanswered -= 1
            } else if reading {
                // Early: the request's body is still coming, and its read deadline still runs.
                readingAnswered = true
                owedOneLess = false
            }
            context.write(data, promise: promise)
            // After the write: what waits on the clock for this answer may write behind it.
            if owedOneLess { clock.answerWritten() }
            if pendingRefusal != nil { refuseWhenDue(context) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parseError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // After a refused head, what the decoder makes of the rest (a tunnel's bytes) is no one's.
        guard !discarding else { return }
        // The decoder can't go on after a parse error: this connection ends, once the answers
        // owed to the requests before the bad one are written. Hummingbird never hears of it,
        // so nobody else writes an answer in between.
        refuse(parseError == .invalidMethod ? .notImplemented : .badRequest, context)
    }

    /// Answers `status` once the answers owed before it are written, then closes.
    private func refuse(_ status: HTTPResponseStatus, _ context: ChannelHandlerContext) {
        guard pendingRefusal == nil else { return }
        pendingRefusal = status
        refuseWhenDue(context)
        // If an answer owed never comes (a handler waits for a body that will not arrive), close anyway.
        context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: .seconds(10)) {
            context.close(promise: nil)
        }
    }

    /// Writes the refusal and closes once no earlier answer is owed.
    private func refuseWhenDue(_ context: ChannelHandlerContext) {
        guard let status = pendingRefusal, !answering, unanswered == 0 else { return }
        pendingRefusal = nil
        if reading && readingAnswered {
            // The bad request was answered already (413 before its body ended).
            context.close(promise: nil)
            return
        }
        let body: ByteBuffer
        var headers = HTTPHeaders([("Content-Type", "application/json; charset=utf-8"), ("Connection", "close")])
        switch status {
        case .notImplemented: body = Self.errorBody("bad_request", "This server does not know that method.")
        case .methodNotAllowed:
            body = Self.errorBody("method_not_allowed", "This server is not a proxy: it does not take CONNECT.")
            headers.add(name: "Allow", value: "GET, HEAD, POST, PUT, PATCH, DELETE")
        default: body = Self.errorBody("bad_request", "The request is not valid HTTP.")
        }
        headers.add(name: "Content-Length", value: String(body.readableBytes))
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
    private static func errorBody(_ code: String, _ message: String) -> ByteBuffer {
        ByteBuffer(string: #"{"error":{"code":"\#(code)","message":"\#(message)"}}"#)
    }

    /// A WebSocket opening handshake as RFC 6455 §4.2.1 has a client send it. Anything else is not
    /// upgraded; NIO's upgrader would drop a non-GET without a word.
    static func isWebSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        func tokens(_ name: String) -> [String] {
            head.headers[name].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        }
        guard head.method == .GET, head.version == .http1_1,
            tokens("connection").contains("upgrade"), tokens("upgrade") == ["websocket"],
            head.headers["sec-websocket-version"] == ["13"],
            let key = head.headers["sec-websocket-key"].first, head.headers["sec-websocket-key"].count == 1,
            let decoded = Data(base64Encoded: key.trimmingCharacters(in: .whitespaces))
        else { return false }
        return decoded.count == 16
    }
}
