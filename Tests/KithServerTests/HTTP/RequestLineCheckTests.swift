import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import KithServer

/// A connection's guards on an in-memory channel, so the order of reads and writes is ours to set:
/// the hostile suite over real sockets meets the same orders only by chance.
@Suite("Request lines without a version, on a kept-alive connection")
struct RequestLineCheckTests {
    /// The handlers `GuardedHTTPChannel` puts around NIO's decoder, in the same order.
    private static func connection() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        let clock = ConnectionClock(settings: ConnectionSettings())
        let pipeline = channel.pipeline.syncOperations
        try pipeline.addHandler(ConnectionActivityHandler(clock: clock))
        try pipeline.addHandler(RequestLineCheck(clock: clock), position: .first)
        try pipeline.addHandler(HTTPResponseEncoder())
        let decoder = ByteToMessageHandler(HTTPRequestDecoder())
        try pipeline.addHandler(decoder)
        try pipeline.addHandler(HTTPRequestGuard(clock: clock, webSocketPaths: []), position: .after(decoder))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    private static func sent(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
            text += buffer.readString(length: buffer.readableBytes) ?? ""
        }
        return text
    }

    private static func readRequest(_ channel: EmbeddedChannel) throws -> [HTTPServerRequestPart] {
        var parts: [HTTPServerRequestPart] = []
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) { parts.append(part) }
        return parts
    }

    private static let okHead = HTTPResponseHead(
        version: .http1_1, status: .ok, headers: ["Content-Length": "2", "Content-Type": "text/plain"])

    @Test func aLineWithoutAVersionWhileAnAnswerIsHalfWrittenIsRefusedRightAfterIt() throws {
        let channel = try Self.connection()
        try channel.writeInbound(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(try Self.readRequest(channel).count == 2)  // head and end
        // The answer's head and body are out, so the client has all it waits for; its end is not.
        try channel.writeOutbound(HTTPServerResponsePart.head(Self.okHead))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "ok"))))
        #expect(try Self.sent(channel).hasSuffix("\r\n\r\nok"))

        try channel.writeInbound(ByteBuffer(string: "GET /\r\n"))
        #expect(channel.isActive)
        #expect(try Self.sent(channel) == "", "nothing may cut into the answer being written")
        #expect(try Self.readRequest(channel).isEmpty, "the refused line never reaches the decoder")

        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        let refusal = try Self.sent(channel)
        #expect(refusal.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(refusal)")
        #expect(refusal.contains("no HTTP version"))
        #expect(!channel.isActive, "the connection closes after the refusal")
    }

    @Test func aLineWithoutAVersionAfterAWholeAnswerIsRefusedAtOnce() throws {
        let channel = try Self.connection()
        try channel.writeInbound(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
        _ = try Self.readRequest(channel)
        try channel.writeOutbound(HTTPServerResponsePart.head(Self.okHead))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "ok"))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        _ = try Self.sent(channel)

        try channel.writeInbound(ByteBuffer(string: "GET /\r\n"))
        #expect(try Self.sent(channel).hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(!channel.isActive)
    }

    @Test func aHeaderLineWhileAnAnswerIsOwedIsNotTakenForARequestLine() throws {
        let channel = try Self.connection()
        // The second request arrives in two reads, the first ending inside its head.
        try channel.writeInbound(ByteBuffer(string: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /a HTTP/1.1\r\n"))
        try channel.writeInbound(ByteBuffer(string: "Host: x\r\n\r\n"))
        try channel.writeOutbound(HTTPServerResponsePart.head(Self.okHead))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "ok"))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        #expect(!(try Self.sent(channel)).contains("400"))
        #expect(channel.isActive)
        let heads = try Self.readRequest(channel).compactMap { part -> String? in
            if case .head(let head) = part { return head.uri }
            return nil
        }
        #expect(heads == ["/healthz", "/a"])
    }
}
