import Foundation
import KithCore
import SQLKit

/// A `family_notices` row.
struct NoticeRow: Codable, Sendable {
    var id: String
    var userID: String
    var familyID: String
    var reminderID: String
    var occurrence: Int64
    var kind: String
    var title: String
    var body: String
    var dueAt: Int64
    var deliveredAt: Int64
    var late: Int64
    var readAt: Int64?
    var seq: Int64

    enum CodingKeys: String, CodingKey {
        case id, kind, title, body, occurrence, late, seq
        case userID = "user_id"
        case familyID = "family_id"
        case reminderID = "reminder_id"
        case dueAt = "due_at"
        case deliveredAt = "delivered_at"
        case readAt = "read_at"
    }

    /// The notice as a reader on `zone`'s clock reads it (nil: UTC, saying so), with its stored
    /// words for a device to write on its own clock.
    func dto(in zone: TimeZone?) -> NoticeDTO {
        NoticeDTO(
            id: id, kind: NoticeKind(rawValue: kind) ?? .due, title: NoticeWording.render(title, in: zone),
            body: NoticeWording.render(body, in: zone), reminderId: reminderID,
            occurrence: Date(epochMillis: occurrence), dueAt: Date(epochMillis: dueAt),
            deliveredAt: Date(epochMillis: deliveredAt), late: late != 0, readAt: readAt.map(Date.init(epochMillis:)),
            seq: seq, wording: NoticeDTO.Wording(title: title, body: body))
    }
}

/// The SQL of the inbox (`family_notices`), in the transaction or connection it is given.
struct NoticeTables: Sendable {
    let sql: any SQLDatabase

    /// Adds the notice unless this recipient has it for this (reminder, occurrence, kind) already:
    /// whether it was added (the unique key decides, on every server at once).
    func insert(_ notice: NoticeRow) async throws -> Bool {
        try await sql.raw(
            """
            INSERT INTO family_notices (id, user_id, family_id, reminder_id, occurrence, kind, title, body, due_at,
                                        delivered_at, late, seq)
            VALUES (\(bind: notice.id), \(bind: notice.userID), \(bind: notice.familyID), \(bind: notice.reminderID),
                    \(bind: notice.occurrence), \(bind: notice.kind), \(bind: notice.title), \(bind: notice.body),
                    \(bind: notice.dueAt), \(bind: notice.deliveredAt), \(bind: notice.late), \(bind: notice.seq))
            ON CONFLICT (reminder_id, occurrence, kind, user_id) DO NOTHING
            """
        ).run()
        let stored = try await sql.raw(
            """
            SELECT id FROM family_notices
            WHERE reminder_id = \(bind: notice.reminderID) AND occurrence = \(bind: notice.occurrence)
              AND kind = \(bind: notice.kind) AND user_id = \(bind: notice.userID)
            """
        ).first(decodingColumn: "id", as: String.self)
        return stored == notice.id
    }

    /// One notice by its id (a push job reads what it sends when it runs).
    func notice(_ id: String) async throws -> NoticeRow? {
        try await sql.raw("SELECT * FROM family_notices WHERE id = \(bind: id)").record(NoticeRow.self)
    }

    /// A page of `userID`'s notices, newest first, before `seq` when given.
    func page(of userID: String, unreadOnly: Bool, before seq: Int64?, limit: Int) async throws -> [NoticeRow] {
        var query = SQLQueryString("SELECT * FROM family_notices WHERE user_id = \(bind: userID)")
        if unreadOnly { query.appendInterpolation(unsafeRaw: " AND read_at IS NULL") }
        if let seq {
            query.appendInterpolation(unsafeRaw: " AND seq < ")
            query.appendInterpolation(bind: seq)
        }
        query.appendInterpolation(unsafeRaw: " ORDER BY seq DESC LIMIT ")
        query.appendInterpolation(bind: limit)
        return try await sql.raw(query).records(NoticeRow.self)
    }

    /// One page of the inbox with the unread count, written for a reader on `zone`'s clock; run it
    /// in a read, so both see one commit.
    /// One row more than shown says whether an older page exists (`next`).
    func inboxPage(of userID: String, unreadOnly: Bool, before seq: Int64?, limit: Int, zone: TimeZone?) async throws
        -> InboxPage
    {
        let rows = try await page(of: userID, unreadOnly: unreadOnly, before: seq, limit: limit + 1)
        let shown = Array(rows.prefix(limit))
        return InboxPage(
            notices: shown.map { $0.dto(in: zone) }, unread: try await unreadCount(of: userID),
            next: rows.count > limit ? shown.last?.seq : nil)
    }

    /// `userID`'s notices delivered after `seq`, oldest first: what a live socket has not sent yet.
    func delivered(to userID: String, after seq: Int64) async throws -> [NoticeRow] {
        try await sql.raw(
            "SELECT * FROM family_notices WHERE user_id = \(bind: userID) AND seq > \(bind: seq) ORDER BY seq LIMIT 100"
        ).records(NoticeRow.self)
    }

    func latestSeq(of userID: String) async throws -> Int64 {
        let latest = try await sql.raw("SELECT MAX(seq) AS seq FROM family_notices WHERE user_id = \(bind: userID)")
            .first(decodingColumn: "seq", as: Int64?.self)
        return (latest ?? nil) ?? 0
    }

    func unreadCount(of userID: String) async throws -> Int {
        try await sql.raw("SELECT COUNT(*) AS n FROM family_notices WHERE user_id = \(bind: userID) AND read_at IS NULL")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    func markRead(_ ids: [String]?, of userID: String, at now: Int64) async throws {
        if let given = ids {
            // Only a UUID can name a notice; anything else (NUL, invalid UTF-8) never reaches SQL.
            let ids = given.compactMap { UUID(text: $0)?.lowercased }
            guard !ids.isEmpty else { return }
            try await sql.raw(
                """
                UPDATE family_notices SET read_at = \(bind: now)
                WHERE user_id = \(bind: userID) AND read_at IS NULL AND id \(in: ids)
                """
            ).run()
        } else {
            try await sql.raw(
                "UPDATE family_notices SET read_at = \(bind: now) WHERE user_id = \(bind: userID) AND read_at IS NULL"
            ).run()
        }
    }
}
