import Foundation

/// Web Push (docs/push.md).
public struct WebPushSettings: Sendable {
    /// Devices one account may have. A new one past this replaces the one unused longest (the
    /// answer names it): someone who reinstalls browsers keeps getting notifications without first
    /// cleaning up the list, and a forgotten device cannot hold a slot for ever.
    public var devicesPerAccount = 10
    /// Lets pushes go to loopback addresses over plain http (`KITH_PUSH_ALLOW_LOOPBACK=1`): for a
    /// stand-in push service in tests, never for a real server.
    public var allowLoopback = false
    /// How long one push service may take to answer before the attempt counts as failed.
    public var timeout: Duration = .seconds(15)
    /// How a push endpoint's host is looked up before a send: the system's resolver; tests answer
    /// with the addresses they need.
    var resolve: @Sendable (String) throws -> [[UInt8]] = HostAddresses.resolve

    public init() {}

    mutating func read(_ environment: [String: String]) throws {
        if let value = environment["KITH_PUSH_ALLOW_LOOPBACK"] {
            switch value {
            case "1", "true": allowLoopback = true
            case "0", "false", "": allowLoopback = false
            default: throw ConfigError("KITH_PUSH_ALLOW_LOOPBACK must be 1 or 0, got \"\(value)\"")
            }
        }
    }
}
