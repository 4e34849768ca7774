/// The live-socket "scope" of a person's memberships: a nudge there means that the scopes they may
/// read changed (a family joined, left or ended), and each of their sockets reads its scopes again
/// and follows the new ones. Never a sync scope, and never sent to a device. A person's own scope
/// is nudged beside it, so their devices pull.
///
/// A socket used to read its scopes again on every change of its person's own scope, in case it
/// was a membership: with 1,000 sockets of one person, each write to that scope cost 1,000 reads
/// (the realtime fan-out's p99 doubled on a slower host).
enum MembershipScope {
    static func of(_ userID: String) -> String { prefix + userID }

    static func isMembership(_ scope: String) -> Bool { scope.hasPrefix(prefix) }

    private static let prefix = "membership:"
}
