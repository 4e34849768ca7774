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
    /// More failures than this for one email within the window are answered 429.
    public var loginFailureLimit = 5
    public var loginFailureWindow: TimeInterval = 15 * 60

    public init() {}
}
