/// The limits of sync both sides hold to: the server refuses past them, devices stay within them.
public enum SyncLimits {
    /// Mutations in one push; a device sends more in several.
    public static let mutationsPerPush = 500
    /// Changes in one pull page unless the device asks for another size…
    public static let defaultPullPage = 500
    /// …up to this many.
    public static let largestPullPage = 1000
    /// Any request body, so a push of `mutationsPerPush` must fit in it.
    public static let largestBody = 1 << 20
}
