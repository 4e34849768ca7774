#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Raw TCP sockets on 127.0.0.1, for network failures no real server shows on demand and for
/// protocols spoken by hand.
public enum LoopbackSocket {
    /// A TCP socket connected to 127.0.0.1:`port`, reads giving up after `readTimeout` seconds.
    public static func connect(port: Int, readTimeout seconds: Int = 30) throws -> Int32 {
        let fd = try tcpSocket()
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard connected == 0 else { throw closing(fd, TestFailure("connect() failed: errno \(errno)")) }
        return fd
    }

    /// A TCP socket bound to 127.0.0.1 on a port the kernel picked, and that port.
    static func bind() throws -> (descriptor: Int32, port: Int) {
        let fd = try tcpSocket()
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                    Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                    Darwin.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard bound == 0 else { throw closing(fd, TestFailure("bind() failed: errno \(errno)")) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw closing(fd, TestFailure("getsockname() failed: errno \(errno)")) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func tcpSocket() throws -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        return fd
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    public static func close(_ fd: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(fd)
        #else
            _ = Darwin.close(fd)
        #endif
    }

    /// Closes `fd` and hands back `error`, so a failed setup step leaks no descriptor.
    static func closing(_ fd: Int32, _ error: TestFailure) -> TestFailure {
        close(fd)
        return error
    }
}
