#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Raw TCP sockets on 127.0.0.1, for network failures no real server shows on demand.
enum LoopbackSocket {
    /// A TCP socket bound to 127.0.0.1 on a port the kernel picked, and that port.
    static func bind() throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw TestFailure("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
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

    static func close(_ fd: Int32) {
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
