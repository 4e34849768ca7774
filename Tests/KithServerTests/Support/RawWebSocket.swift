import Foundation
import KithTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WebSocket spoken by hand over a blocking TCP socket, for what client libraries never send on
/// purpose: a ping checked by its pong, frames that break the protocol. Blocking calls run off the
/// cooperative pool; reads give up after 30 s.
final class RawWebSocket: Sendable {
    struct Frame: Sendable {
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    static let text: UInt8 = 0x1, binary: UInt8 = 0x2, close: UInt8 = 0x8, ping: UInt8 = 0x9, pong: UInt8 = 0xA

    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { LoopbackSocket.close(descriptor) }

    /// Connects to 127.0.0.1:`port` and upgrades `GET /v1/live`, with `Authorization: Bearer <token>`
    /// when a token is given, and exactly the extra `headers` (a browser's Cookie and Origin).
    static func open(port: Int, token: String? = nil, headers: [(String, String)] = []) async throws -> RawWebSocket {
        let extra = (token.map { [("Authorization", "Bearer \($0)")] } ?? []) + headers
        return try await offCooperativePool {
            let socket = RawWebSocket(descriptor: try LoopbackSocket.connect(port: port))
            try socket.writeAll(
                Array(
                    ("GET /v1/live HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                        + extra.map { "\($0): \($1)\r\n" }.joined() + "\r\n").utf8))
            var head: [UInt8] = []
            while !head.ends(with: Array("\r\n\r\n".utf8)) { head += try socket.read(count: 1) }
            let statusLine = String(decoding: head, as: UTF8.self).prefix { $0 != "\r" }
            guard statusLine.contains(" 101 ") else { throw TestFailure("the upgrade was refused: \(statusLine)") }
            return socket
        }
    }

    /// Sends one final frame, masked as a client must.
    func send(opcode: UInt8, _ payload: [UInt8]) async throws {
        precondition(payload.count < 126, "short frames only")
        let mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]
        let bytes: [UInt8] =
            [0x80 | opcode, 0x80 | UInt8(payload.count)] + mask
            + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try await offCooperativePool { try self.writeAll(bytes) }
    }

    /// The next frame from the server; nil when it closed the connection.
    func nextFrame() async throws -> Frame? {
        try await offCooperativePool {
            do {
                let header = try self.read(count: 2)
                var length = Int(header[1] & 0x7f)
                if length == 126 {
                    let extended = try self.read(count: 2)
                    length = Int(extended[0]) << 8 | Int(extended[1])
                } else if length == 127 {
                    length = try self.read(count: 8).reduce(0) { $0 << 8 | Int($1) }
                }
                return Frame(opcode: header[0] & 0x0f, payload: try self.read(count: length))
            } catch RawSocketError.closed {
                return nil
            }
        }
    }

    private enum RawSocketError: Error { case closed }

    private func read(count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { posixRead(descriptor, $0.baseAddress! + filled, count - filled) }
            if got == 0 { throw RawSocketError.closed }
            guard got > 0 else { throw TestFailure("read() failed or timed out: errno \(errno)") }
            filled += got
        }
        return bytes
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let wrote = bytes.withUnsafeBytes { posixWrite(descriptor, $0.baseAddress! + sent, bytes.count - sent) }
            guard wrote > 0 else { throw TestFailure("write() failed: errno \(errno)") }
            sent += wrote
        }
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}

// Module-qualified so the methods above (read) do not hide them.
#if canImport(Glibc)
    private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
    private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        Glibc.write(fd, buffer, count)
    }
#else
    private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Darwin.read(fd, buffer, count)
    }
    private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        Darwin.write(fd, buffer, count)
    }
#endif
