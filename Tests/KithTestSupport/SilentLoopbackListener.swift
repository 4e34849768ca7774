import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server that never answers, for timeouts: a socket on 127.0.0.1 that listens but never accepts.
/// The kernel completes the TCP handshake from its backlog, so a client connects and then waits
/// forever for a greeting or a response.
public final class SilentLoopbackListener: Sendable {
    public let port: Int
    private let descriptor: Mutex<Int32>

    public init() throws {
        let (fd, port) = try LoopbackSocket.bind()
        guard listen(fd, 16) == 0 else {
            throw LoopbackSocket.closing(fd, TestFailure("listen() failed: errno \(errno)"))
        }
        self.port = port
        descriptor = Mutex(fd)
    }

    /// Stops listening; later calls do nothing.
    public func close() {
        descriptor.withLock { fd in
            if fd >= 0 { LoopbackSocket.close(fd) }
            fd = -1
        }
    }

    deinit { close() }
}
