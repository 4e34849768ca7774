import NIOCore

/// Reads each request line as it passes, and answers 400 at once when it has no HTTP version
/// (`GET /`, HTTP/0.9): the decoder would wait for the rest of a line that never comes. It never
/// holds bytes back, and checks a line only where a request begins (the clock knows when).
///
/// A request can begin inside the read that ended the one before (pipelined, or after an early
/// answer), so the bytes after the last line break of every read are kept (`tail`) and a request
/// line is read as `tail` + what follows. `tail` may also hold the end of the previous request's
/// body; only the end of the line is judged (it must end in an HTTP version), which those
/// leftover bytes can't change.
final class RequestLineCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Longer lines are the decoder's to refuse.
    private static let longestLine = 8192
    private let clock: ConnectionClock
    /// The request line read so far; nil when not at the start of a request.
    private var line: [UInt8]?
    /// The bytes after the last line break seen, at most `longestLine` of them.
    private var tail: [UInt8] = []

    init(clock: ConnectionClock) { self.clock = clock }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if clock.isWebSocket {
            context.fireChannelRead(data)
            return
        }
        let bytes = unwrapInboundIn(data).readableBytesView
        if line == nil && clock.awaitingRequest { line = tail }
        remember(bytes)
        guard var collected = line else {
            context.fireChannelRead(data)
            return
        }
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            collected += bytes.prefix(Self.longestLine - min(collected.count, Self.longestLine))
            line = collected.count >= Self.longestLine ? nil : collected
            context.fireChannelRead(data)
            return
        }
        collected += bytes[..<end].prefix(Self.longestLine - min(collected.count, Self.longestLine))
        line = nil
        // Blank lines before a request are allowed (RFC 9112 §2.2); the line after them is checked.
        if collected.isEmpty || collected == [UInt8(ascii: "\r")] {
            context.fireChannelRead(data)
            return
        }
        if Self.hasVersion(collected) || clock.owesAnswers {
            // With an answer still owed, a refusal written now would cut into it: the decoder
            // waits, and the request deadline closes the connection.
            context.fireChannelRead(data)
        } else {
            refuse(context)
        }
    }

    /// Keeps what follows the last line break of `bytes` (or adds all of it when it has none).
    private func remember(_ bytes: ByteBufferView) {
        if let lastBreak = bytes.lastIndex(of: UInt8(ascii: "\n")) {
            tail = Array(bytes[bytes.index(after: lastBreak)...].suffix(Self.longestLine))
        } else if bytes.count >= Self.longestLine {
            tail = Array(bytes.suffix(Self.longestLine))
        } else {
            tail.append(contentsOf: bytes)
            if tail.count > Self.longestLine { tail.removeFirst(tail.count - Self.longestLine) }
        }
    }

    /// The line ends `… target HTTP/x.y`: at least three parts, the last one a version. (A request
    /// line has exactly three; anything before them is the previous request's leftover bytes.)
    static func hasVersion(_ line: [UInt8]) -> Bool {
        var text = line
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        let parts = text.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        return parts.count >= 3 && parts[parts.count - 1].starts(with: Array("HTTP/".utf8))
    }

    private func refuse(_ context: ChannelHandlerContext) {
        let body = #"{"error":{"code":"bad_request","message":"The request line has no HTTP version."}}"#
        let answer =
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer))).assumeIsolatedUnsafeUnchecked()
            .whenComplete { _ in context.close(promise: nil) }
    }
}
