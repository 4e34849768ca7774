import Foundation
import KithKit
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// URLSessionTransport turns network failures into the two errors apps handle.
@Suite("URLSessionTransport")
struct TransportTests {
    @Test("nothing listening: offline")
    func connectionRefused() async throws {
        let socket = try LoopbackSocket(listening: false)
        let port = socket.port
        socket.close()
        let transport = URLSessionTransport(timeout: 5)
        await #expect(throws: KithError.offline) {
            _ = try await transport.send(HTTPExchangeRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(port)/healthz")!))
        }
    }

    @Test("a server that never answers: timeout")
    func timeout() async throws {
        // Connections complete in the kernel's backlog, but nobody reads or answers them.
        let socket = try LoopbackSocket(listening: true)
        defer { socket.close() }
        // Whole seconds: FoundationNetworking on Linux gives up at once on a sub-second timeout.
        let transport = URLSessionTransport(timeout: 1)
        let started = ContinuousClock.now
        await #expect(throws: KithError.timeout) {
            _ = try await transport.send(
                HTTPExchangeRequest(method: "GET", url: URL(string: "http://127.0.0.1:\(socket.port)/healthz")!))
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(900), "gave up after \(elapsed), before the timeout")
        #expect(elapsed < .seconds(10))
    }
}

/// A TCP socket on 127.0.0.1 with a free port.
final class LoopbackSocket: Sendable {
    let fd: Int32
    let port: Int

    init(listening: Bool) throws {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard bound == 0, named == 0, !listening || listen(fd, 16) == 0 else {
            closeDescriptor(fd)
            throw SocketError()
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { closeDescriptor(fd) }

    struct SocketError: Error {}
}

private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
