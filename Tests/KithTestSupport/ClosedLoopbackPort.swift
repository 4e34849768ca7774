/// A loopback port nothing listens on, for "connection refused": bound to get a free port from the
/// kernel, then closed. Another process could take it in between, but that is very unlikely.
public func closedLoopbackPort() throws -> Int {
    let (fd, port) = try LoopbackSocket.bind()
    LoopbackSocket.close(fd)
    return port
}
