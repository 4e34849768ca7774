import Foundation
import SQLKit

/// A journal entry's fields as a write gives them. A nil `date`: the day of creation on create,
/// the entry's day as it was on update.
struct EntryInput: Sendable {
    let title: String
    let post: String
    let date: String?
}

/// A day's rating as a write gives it. A nil `date` (only on update): the rating's day as it was.
struct DayInput: Sendable {
    let date: String?
    let rate: Int64
    let comment: String?
}

/// The account's journal: its entries and its day ratings.
struct JournalRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    private static let dayTaken = MonicaError.invalid("There is already a rating for this day.")

    func entries(account: Int64, _ page: PageRequest) async throws -> RecordPage<EntryRecord> {
        try await reading(account) { storage in try await storage.table(EntryRecord.self).page(page) }
    }

    func entry(account: Int64, id: Int64) async throws -> EntryRecord {
        try await reading(account) { storage in try await storage.table(EntryRecord.self).require(id) }
    }

    /// Creates an entry (nil `id`) or changes entry `id` (if it is still a version `ifMatch` names).
    func saveEntry(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: EntryInput, now: Int64) async throws
        -> EntryRecord
    {
        try await writing(account) { [ids] storage in
            if let id { try await storage.check(ifMatch, EntryRecord.self, id: id) }
            let entries = storage.table(EntryRecord.self)
            if let id { _ = try await entries.require(id) }
            var values: MonicaColumns = ["title": .text(input.title), "post": .text(input.post)]
            if let date = input.date ?? (id == nil ? MonicaDate.today(nowMillis: now).ymd : nil) {
                values["date"] = .text(date)
            }
            return try await entries.save(id, values, now: now, ids: ids)
        }
    }

    func deleteEntry(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, EntryRecord.self, id: id)
            let entries = storage.table(EntryRecord.self)
            _ = try await entries.require(id)
            try await entries.delete(id)
        }
    }

    /// A page of the account's ratings: in the requested order, or newest day first.
    func days(account: Int64, _ page: PageRequest, newestDayFirst: Bool) async throws -> RecordPage<DayRecord> {
        try await reading(account) { storage in
            guard newestDayFirst else { return try await storage.table(DayRecord.self).page(page) }
            let total =
                try await storage.sql.raw(
                    "SELECT COUNT(*) AS total FROM monica_journal_days WHERE account_id = \(bind: storage.account)"
                ).first()?.decode(column: "total", as: Int64.self) ?? 0
            let records = try await storage.sql.raw(
                """
                SELECT * FROM monica_journal_days WHERE account_id = \(bind: storage.account)
                ORDER BY "date" DESC, id DESC LIMIT \(bind: page.limit) OFFSET \(bind: page.offset)
                """
            ).all().map { try $0.record(DayRecord.self) }
            return RecordPage(records: records, total: Int(total))
        }
    }

    func day(account: Int64, id: Int64) async throws -> DayRecord {
        try await reading(account) { storage in try await storage.table(DayRecord.self).require(id) }
    }

    /// Rates a day (nil `id`) or changes rating `id` (if it is still a version `ifMatch` names).
    /// A day has one rating: a day another rating has is refused, and nothing changes.
    func saveDay(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: DayInput, now: Int64) async throws
        -> DayRecord
    {
        do {
            return try await writing(account) { [ids] storage in
                if let id { try await storage.check(ifMatch, DayRecord.self, id: id) }
                let days = storage.table(DayRecord.self)
                if let id { _ = try await days.require(id) }
                var values: MonicaColumns = ["rate": .int(input.rate), "comment": .text(input.comment)]
                if let date = input.date {
                    if let rated = try await Self.rating(on: date, storage), rated != id { throw Self.dayTaken }
                    values["date"] = .text(date)
                }
                return try await days.save(id, values, now: now, ids: ids)
            }
        } catch let error where !(error is MonicaError) {
            // Two writes rating one day at once (PostgreSQL): the unique index refused the second.
            if let date = input.date,
                let rated = try await reading(account, { storage in try await Self.rating(on: date, storage) }),
                rated != id
            {
                throw Self.dayTaken
            }
            throw error
        }
    }

    func deleteDay(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, DayRecord.self, id: id)
            let days = storage.table(DayRecord.self)
            _ = try await days.require(id)
            try await days.delete(id)
        }
    }

    /// The id of the account's rating of `date`, if it has one.
    private static func rating(on date: String, _ storage: MonicaStorage) async throws -> Int64? {
        try await storage.sql.raw(
            """
            SELECT id FROM monica_journal_days WHERE account_id = \(bind: storage.account) AND "date" = \(bind: date)
            """
        ).first()?.decode(column: "id", as: Int64.self)
    }
}
