/// Limits of the live socket (`GET /v1/live`). The default is the contract; tests shorten it so a
/// socket that never authenticates is closed without a ten-second wait.
public struct LiveSettings: Sendable {
    /// A socket opened without an `Authorization` header must send `{"type":"auth",…}` within this.
    public var authTimeout: Duration = .seconds(10)

    public init() {}
}
