/// Limits of the live socket (`GET /v1/live`). The defaults are the contract; tests change them to
/// see a silent socket closed without a ten-second wait, or a change made while LISTEN is down.
public struct LiveSettings: Sendable {
    /// A socket opened without an `Authorization` header must send `{"type":"auth",…}` within this.
    public var authTimeout: Duration = .seconds(10)
    /// PostgreSQL: the wait before reopening a dropped LISTEN connection, doubled on each failure
    /// up to 30 seconds.
    public var listenRetryDelay: Duration = .milliseconds(250)

    public init() {}
}
