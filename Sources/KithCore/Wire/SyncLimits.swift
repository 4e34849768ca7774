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
    /// How far ahead of the server's clock a stamp may run. Further ahead, a device could win every
    /// conflict for as long: the server refuses it (`clock_skew`) and tells its time, and the device
    /// re-stamps what it queued (docs/sync.md, "A device's clock").
    public static let maximumClockSkewMillis: Int64 = 5 * 60 * 1000
    /// The longest HLC node (a device's id; Kith's are 36): every field a write touches carries its
    /// writer's node to every reader.
    public static let maximumNodeLength = 64
}
