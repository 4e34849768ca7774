import Foundation

/// Lifetimes and limits of the account system. Defaults are the contract; tests shorten nothing
/// but the bcrypt cost (and move the clock instead).
public struct AccountSettings: Sendable {
    public var bcryptCost: UInt8 = 10
    public var accessTokenLifetime: TimeInterval = 3600
    public var refreshTokenLifetime: TimeInterval = 60 * 24 * 3600
    public var webSessionLifetime: TimeInterval = 30 * 24 * 3600
    public var passwordResetLifetime: TimeInterval = 30 * 60
    /// At most one reset mail per account in this interval.
    public var passwordResetMailInterval: TimeInterval = 120
    /// After this many failures for one email within the window, further attempts are answered
    /// 429, except from a device that signed in to the account before.
    public var loginFailureLimit = 5
    /// After this many failures from one client address within the window, whatever the emails,
    /// its attempts are answered 429.
    public var clientFailureLimit = 20
    public var loginFailureWindow: TimeInterval = 15 * 60

    public init() {}
}
