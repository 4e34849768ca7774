import NIOCore

/// Reads request lines as they pass, and answers 400 at once to one with no HTTP version
/// (`GET /`, HTTP/0.9): the decoder takes such a line for a request whose headers are still to
/// come and would wait for them until the request deadline. It holds no bytes back, except those
/// from a refused line on, which no one reads.
///
/// Only the connection's first line is known for sure to be a request line. Later, the clock says
/// when the previous request ended, but not where in the read that ended it the next one began: a
/// read can carry the end of one request and the start of the next (pipelined, or after an early
/// answer), so the next read may continue a request line, a header line or a body. So the bytes
/// after each read's last line break are kept (`tail`) and a line is read as `tail` + what follows,
/// and after the first request only what is unmistakably an HTTP/0.9 line is refused: a method
/// and a target, nothing else (a header line's first word ends in a colon). The decoder refuses
/// every other malformed line itself.
final class RequestLineCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How much of a line is kept: its end is what is judged, and the decoder refuses lines
    /// longer than this anyway.
    private static let longestLine = 8192
    private let clock: ConnectionClock
    /// The request line read so far; nil when not at the start of a request.
    private var line: [UInt8]?
    /// Whether `line` is the connection's first line, and so certainly a request line.
    private var lineIsWhole = false
    private var atFirstLine = true
    /// The bytes after the last line break seen, at most `longestLine` of them.
    private var tail: [UInt8] = []
    /// A line was refused: the connection ends once the answers owed before it are written.
    private var refusing = false

    init(clock: ConnectionClock) { self.clock = clock }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refusing { return }
        if clock.isWebSocket {
            context.fireChannelRead(data)
            return
        }
        let bytes = unwrapInboundIn(data).readableBytesView
        if line == nil && clock.awaitingRequest {
            line = tail
            lineIsWhole = atFirstLine
            atFirstLine = false
        }
        remember(bytes)
        guard var collected = line else {
            context.fireChannelRead(data)
            return
        }
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
            line = Self.lastBytes(collected + bytes)
            context.fireChannelRead(data)
            return
        }
        collected = Self.lastBytes(collected + bytes[..<end])
        line = nil
        // Blank lines before a request are allowed (RFC 9112 §2.2); the line after them is checked.
        if collected.isEmpty || collected == [UInt8(ascii: "\r")] {
            context.fireChannelRead(data)
            return
        }
        let refused = lineIsWhole ? !Self.hasVersion(collected) : Self.isHTTP09(collected)
        guard refused else {
            context.fireChannelRead(data)
            return
        }
        // With an answer still owed (its body can reach the client before its end is written),
        // a refusal written now would cut into it: it follows the answer instead. The refused
        // line and whatever comes after it never reach the decoder.
        refusing = true
        clock.whenNothingOwed { [weak self] in self?.refuse(context) }
    }

    private static func lastBytes(_ bytes: [UInt8]) -> [UInt8] {
        bytes.count > longestLine ? Array(bytes.suffix(longestLine)) : bytes
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

    /// `METHOD target HTTP/x.y`: three parts, the last one a version.
    static func hasVersion(_ line: [UInt8]) -> Bool {
        let parts = words(line)
        return parts.count == 3 && parts[2].starts(with: Array("HTTP/".utf8))
    }

    /// `METHOD target` and nothing else: an HTTP/0.9 request line.
    static func isHTTP09(_ line: [UInt8]) -> Bool {
        let parts = words(line)
        guard parts.count == 2, parts[0].allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            return false
        }
        let target = parts[1]
        return target.first == UInt8(ascii: "/") || target.first == UInt8(ascii: "*")
            || target.firstRange(of: Array("://".utf8)) != nil
    }

    private static func words(_ line: [UInt8]) -> [ArraySlice<UInt8>] {
        var text = line[...]
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        return text.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
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
