import NIOCore

/// Reads a connection's first request line as it passes, and answers 400 at once when it has no
/// HTTP version (`GET /`, HTTP/0.9): the decoder would wait for the rest of a line that never
/// comes. Steps aside once the line is known to be fine; it never holds bytes back.
final class RequestLineCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Longer lines are the decoder's to refuse.
    private static let longestLine = 8192
    private var line: [UInt8] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data).readableBytesView
        if let end = bytes.firstIndex(of: UInt8(ascii: "\n")) {
            line += bytes[..<end].prefix(Self.longestLine)
            if Self.hasVersion(line) {
                context.fireChannelRead(data)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            } else {
                refuse(context)
            }
            return
        }
        line += bytes.prefix(Self.longestLine - line.count)
        context.fireChannelRead(data)
        if line.count >= Self.longestLine { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }

    /// `METHOD target HTTP/x.y`: three parts, the last one a version.
    static func hasVersion(_ line: [UInt8]) -> Bool {
        var text = line
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        let parts = text.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        return parts.count == 3 && parts[2].starts(with: Array("HTTP/".utf8))
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
