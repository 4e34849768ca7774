import Foundation
import KithCore
import SQLKit

/// Delivers one planned notice (`FamilyNoticeScheduler` made the job): reads the reminder and the
/// family as they are now, drops the notice if it no longer stands (the due time moved, the
/// reminder was completed, a completion undone, the reminder deleted, a before-due notice whose
/// due time passed while the server was down), else adds it to each recipient's inbox once (the
/// inbox's unique key), marked late when it comes more than a minute after its time, and tells
/// their live sockets. A `missed` notice also moves its repeat on to the next occurrence, in the
/// same transaction (`FamilyNoticeJob+Missed`). Safe to run twice, on any server.
struct FamilyNoticeJob: JobHandler {
    static let kind = "family.notice"
    static let retry = JobRetryPolicy(maxAttempts: 10, firstDelay: .seconds(1), maximumDelay: .seconds(60))
    /// A notice delivered later than this after its time says so.
    static let lateAfterMillis: Int64 = 60_000

    struct Payload: Codable, Sendable {
        var scope: String
        var reminder: String
        var kind: NoticeKind
        var occurrence: Int64
        var at: Int64
    }

    static func key(_ notice: PlannedNotice) -> String {
        "\(kind):\(notice.reminder.lowercased):\(notice.occurrence.epochMillis):\(notice.kind.rawValue)"
    }

    let database: KithDatabase
    let sync: SyncRepository
    /// Writes the reminder as the server when a missed occurrence moves it on.
    let writer: SyncWriter
    let stamps: WebClock
    let notifier: any ChangeNotifier
    let clock: Clock
    let ids: IdentifierSource
    /// Where new notices go besides the inbox, told in the transaction that adds them.
    let channels: [any NoticeChannel]

    var kind: String { Self.kind }
    var retry: JobRetryPolicy { Self.retry }

    /// A reminder's notices in the order of their times (the key is `family.notice:<reminder>:…`).
    func sequence(of job: Job) -> String? {
        job.key.split(separator: ":", maxSplits: 2).prefix(2).joined(separator: ":")
    }

    func run(_ job: Job) async throws {
        let payload = try job.payload(as: Payload.self)
        guard let reminderID = UUID(text: payload.reminder), payload.scope.hasPrefix("family:") else {
            throw JobFailure.permanent("a notice without its reminder or family: \(job.payload)")
        }
        let family = FamilySnapshotOfRecords(try await sync.liveFields(Self.familyEntities, in: payload.scope))
        let stored = try await sync.record(reminderID, in: payload.scope)
        let reminder = stored.flatMap { record -> FamilyReminder? in
            guard !record.isDeleted, record.scope == payload.scope else { return nil }
            return FamilyReminder(id: record.id, fields: record.fields, checklist: [], timeZone: family.timeZone)
        }
        let notice = PlannedNotice(
            reminder: reminderID, kind: payload.kind, occurrence: Date(epochMillis: payload.occurrence),
            at: Date(epochMillis: payload.at), recipients: [])
        let now = clock.nowMillis
        guard let reminder, NoticePlan.stillStands(notice, for: reminder, now: Date(epochMillis: now)) else { return }
        let recipients = family.recipients(of: payload.kind, for: reminder)
        guard !recipients.isEmpty else { return }
        let familyID = String(payload.scope.dropFirst("family:".count))
        let late = now - payload.at > Self.lateAfterMillis
        @Sendable func rows(_ counter: SyncTransaction, next: Date? = nil) async throws -> [NoticeRow] {
            var rows: [NoticeRow] = []
            // Each inbox counts on its own (a socket sends what is after the last it sent); taken
            // in one order, so two families' notices for the same people never wait on each other.
            for recipient in recipients.sorted() {
                let text = NoticeText(
                    kind: payload.kind, reminder: reminder, family: family, now: Date(epochMillis: now), recipient: recipient,
                    next: next)
                rows.append(
                    NoticeRow(
                        id: ids.text(), userID: recipient, familyID: familyID, reminderID: reminderID.lowercased,
                        occurrence: payload.occurrence, kind: payload.kind.rawValue, title: text.title, body: text.body,
                        dueAt: payload.at, deliveredAt: now, late: late ? 1 : 0, readAt: nil,
                        seq: try await counter.reserveSequenceValues(1, in: InboxScope.of(recipient)).lowerBound))
            }
            return rows
        }
        if payload.kind == .missed {
            try await moveOn(past: reminder, in: payload.scope, family: family) { store, next in
                try await insert(try await rows(store, next: next), sql: store.sql)
            }
            return
        }
        let delivered = try await database.transaction { sql in
            try await insert(try await rows(SyncTransaction(sql: sql, scope: payload.scope, engine: database.engine)), sql: sql)
        }
        await notifier.committed(delivered)
    }

    /// Adds each row unless its recipient has it already, and hands the added ones to the
    /// channels; the inboxes to nudge.
    func insert(_ rows: [NoticeRow], sql: any SQLDatabase) async throws -> [ScopeChange] {
        var added: [NoticeRow] = []
        for row in rows where try await NoticeTables(sql: sql).insert(row) { added.append(row) }
        for channel in channels where !added.isEmpty { try await channel.delivered(added, sql: sql) }
        return added.map { ScopeChange(scope: InboxScope.of($0.userID), seq: $0.seq) }
    }

    static let familyEntities: Set<String> = [FamilyEntities.member.name, FamilyEntities.info.name]
}

/// The live-socket "scope" of a person's inbox: a nudge there means "new notices", which the
/// socket reads and sends as `notice` messages. Never a sync scope.
enum InboxScope {
    static func of(_ userID: String) -> String { "inbox:" + userID }
}
