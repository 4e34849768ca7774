/// How long the server waits for a client, and how many clients it serves at once. Without these a
/// silent or slow client holds a connection (and its memory) forever: 1,000 idle sockets were all
/// still open after 65 s before they existed.
public struct ConnectionSettings: Sendable {
    /// A connection with no request in progress and nothing left to answer is closed after this.
    public var idleTimeout: Duration = .seconds(60)
    /// A request must arrive whole (head and body) within this from its first byte; a new
    /// connection must send one within this too. Slower clients are closed.
    public var requestReadTimeout: Duration = .seconds(30)
    /// Connections served at once, live sockets included; further ones wait in the listen queue
    /// until one closes.
    public var maximumConnections = 4096

    public init() {}
}
