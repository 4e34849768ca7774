import Foundation
import KithCore
import SQLKit

/// The Family app's notices as pushes (docs/push.md, "What is pushed"): a `NoticeChannel` that
/// plans one `push.deliver` job per new notice and device of its recipient that wants its kind,
/// in the notice's own transaction, and the message each job sends.
struct FamilyNoticePushes: NoticeChannel {
    let ids: IdentifierSource
    let clock: Clock

    func delivered(_ notices: [NoticeRow], sql: any SQLDatabase) async throws {
        let devices = try await PushSubscriptionRepository.devices(
            of: Array(Set(notices.map(\.userID))).sorted(), sql: sql)
        guard !devices.isEmpty else { return }
        let now = clock.nowMillis
        for notice in notices {
            guard let kind = NoticeKind(rawValue: notice.kind) else { continue }
            for device in devices where device.userID == notice.userID && device.wants(WebPushKind(kind)) {
                try await JobRepository.insert(
                    try PushDeliveryJob.job(notice: notice.id, device: device.id, runAt: now), id: ids.text(), now: now,
                    sql: sql)
            }
        }
    }

    /// The push for a stored notice, its words written on the family's clock.
    static func message(for notice: NoticeRow, familyZone: TimeZone?) -> PushMessage? {
        guard let kind = NoticeKind(rawValue: notice.kind) else { return nil }
        let payload = WebPushPayload(
            title: NoticeWording.render(notice.title, in: familyZone),
            body: NoticeWording.render(notice.body, in: familyZone),
            url: kind == .completion ? "/family/notices" : "/family/reminders/\(notice.reminderID)",
            tag: "reminder:\(notice.reminderID):\(notice.occurrence)", kind: WebPushKind(kind), noticeId: notice.id,
            at: Date(epochMillis: notice.dueAt))
        return PushMessage(
            payload: payload, mattersUntil: mattersUntil(kind, notice: notice),
            topic: PushMessage.topic("\(notice.reminderID):\(kind.rawValue)"), urgency: urgency(kind))
    }

    /// A before-due notice matters until the due time; one that asks for action (due, snooze over,
    /// missed) for half a day; news of what happened (completion, movement) for a day.
    static func mattersUntil(_ kind: NoticeKind, notice: NoticeRow) -> Int64 {
        switch kind {
        case .before3, .before2, .before1: notice.occurrence
        case .due, .snoozed, .missed: notice.dueAt + 12 * 3_600_000
        case .completion, .movement: notice.dueAt + 24 * 3_600_000
        }
    }

    /// What wakes a phone at once: a reminder coming due or due, and a child moving away.
    static func urgency(_ kind: NoticeKind) -> PushMessage.Urgency {
        switch kind {
        case .before3, .before2, .before1, .due, .snoozed, .movement: .high
        case .completion, .missed: .normal
        }
    }
}

/// Reads a Family notice for its push job, with the family's zone (its words name times).
struct FamilyNoticeReader: Sendable {
    let database: KithDatabase

    /// The notice's push and its recipient; nil once the notice is gone (its family deleted).
    func message(_ noticeID: String) async throws -> (message: PushMessage, userID: String)? {
        try await database.read { sql in
            guard let notice = try await NoticeTables(sql: sql).notice(noticeID),
                let message = FamilyNoticePushes.message(
                    for: notice,
                    familyZone: try await FamilyTables(sql: sql).family(notice.familyID).flatMap {
                        TimeZone(identifier: $0.timeZone)
                    })
            else { return nil }
            return (message, notice.userID)
        }
    }
}
