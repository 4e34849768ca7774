import Foundation
import SQLKit

/// When a person wants the Contacts app's dated reminders (birthdays and the like) pushed: an hour
/// on their zone's clock, the same every day. Chosen on the account page; 09:00 UTC until then.
struct ReminderTime: Sendable, Equatable {
    var hour: Int
    var zoneID: String

    static let standard = ReminderTime(hour: 9, zoneID: "UTC")
    static let hours = 0...23

    /// The days whose push time is at most `window` before `now`, each with that moment: today's
    /// once its hour has come, and yesterday's still, when the window reaches back past midnight.
    func daysDue(now: Int64, window: Int64) -> [(date: MonicaDate, at: Int64)] {
        guard let zone = TimeZone(identifier: zoneID) else { return [] }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let today = calendar.startOfDay(for: Date(epochMillis: now))
        return [-1, 0].compactMap { offset in
            guard let day = calendar.date(byAdding: .day, value: offset, to: today) else { return nil }
            let parts = calendar.dateComponents([.year, .month, .day], from: day)
            // A clock change that skips the hour gives the next moment that exists.
            guard let year = parts.year, let month = parts.month, let dayOfMonth = parts.day,
                let date = MonicaDate(year: year, month: month, day: dayOfMonth),
                let at = calendar.date(bySettingHour: hour, minute: 0, second: 0, of: day)?.epochMillis,
                at <= now, now - at < window
            else { return nil }
            return (date, at)
        }
    }
}

/// Storage of `push_reminder_times`.
struct ReminderTimeRepository: Sendable {
    let database: KithDatabase

    func time(of userID: String) async throws -> ReminderTime {
        try await database.read { sql in
            guard
                let row = try await sql.raw(
                    "SELECT hour, time_zone FROM push_reminder_times WHERE user_id = \(bind: userID)"
                ).first()
            else { return .standard }
            return ReminderTime(
                hour: try row.decode(column: "hour", as: Int.self),
                zoneID: try row.decode(column: "time_zone", as: String.self))
        }
    }

    func set(_ time: ReminderTime, of userID: String, now: Int64) async throws {
        try await database.run { sql in
            try await sql.raw(
                """
                INSERT INTO push_reminder_times (user_id, hour, time_zone, updated_at)
                VALUES (\(bind: userID), \(bind: time.hour), \(bind: time.zoneID), \(bind: now))
                ON CONFLICT (user_id) DO UPDATE SET hour = excluded.hour, time_zone = excluded.time_zone,
                    updated_at = excluded.updated_at
                """
            ).run()
        }
    }
}
