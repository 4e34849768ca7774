import SQLKit

/// Somewhere a delivered notice goes besides the inbox (Web Push to the recipient's devices,
/// docs/push.md). It is told of the rows an inbox gained inside the transaction that added them,
/// so what it plans (its own jobs) commits with the notices or not at all, and a notice added
/// once is passed on once. The inbox stays the record of every notice.
protocol NoticeChannel: Sendable {
    func delivered(_ notices: [NoticeRow], sql: any SQLDatabase) async throws
}
