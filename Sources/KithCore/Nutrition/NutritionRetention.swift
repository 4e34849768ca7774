import Foundation

/// How long daily logs are kept (docs/nutrition.md "Retention"): a day more than
/// `days` days before today is deleted with its items, by the server's purge job and by every device,
/// as synced deletions. Custom meals and goals are never touched.
public struct NutritionRetention: Sendable, Hashable {
    /// The accepted settings: at least a day, at most a century.
    public static let allowedDays: ClosedRange<Int> = 1...36_500
    public static let standard = NutritionRetention(days: 90)!

    public let days: Int

    public init?(days: Int) {
        guard Self.allowedDays.contains(days) else { return nil }
        self.days = days
    }

    /// The oldest day still kept when it is `today`.
    public func firstKeptDay(today: LocalDate) -> LocalDate { today.adding(days: -days) }

    public func isExpired(_ date: LocalDate, today: LocalDate) -> Bool { date < firstKeptDay(today: today) }

    /// Whether a day may still be written. On a device `context.timeZone` is the person's zone; the
    /// server does not know it, so it refuses only what is expired in every zone (its "today" is
    /// the one of UTC-12, the last place a date begins).
    public func accepts(_ date: LocalDate, _ context: RuleContext) -> Bool {
        !isExpired(date, today: LocalDate(context.now, in: context.timeZone ?? Self.latestZone))
    }

    /// Whether a day has not begun yet: on a device in its zone; on the server nowhere yet (its
    /// "today" is the one of UTC+14, the first place a date begins).
    public func isInFuture(_ date: LocalDate, _ context: RuleContext) -> Bool {
        date > LocalDate(context.now, in: context.timeZone ?? Self.earliestZone)
    }

    /// Whether a day may be deleted as expired: on a device in its zone; on the server when it is
    /// expired somewhere (UTC+14, the first place a date begins), so a device's purge is never refused.
    public func allowsPurge(of date: LocalDate, _ context: RuleContext) -> Bool {
        isExpired(date, today: LocalDate(context.now, in: context.timeZone ?? Self.earliestZone))
    }

    /// The days among `days` (records of `nutrition.day`) that are expired on `today`.
    public func expired(_ days: [SyncRecord], today: LocalDate) -> [SyncRecord] {
        days.filter { record in
            guard let date = record.fields[NutritionFields.date]?.stringValue.flatMap(LocalDate.init) else {
                return false
            }
            return isExpired(date, today: today)
        }
    }

    /// The message for a day that has not begun yet.
    public func futureRefusal(_ date: LocalDate) -> APIErrorDetail {
        APIErrorDetail(
            .validationFailed, "\(date) is in the future; log a day once it has begun.", field: NutritionFields.date)
    }

    /// The message for a day outside the window.
    public func refusal(_ date: LocalDate) -> APIErrorDetail {
        APIErrorDetail(
            .outsideRetention,
            "\(date) is more than \(days) days ago; logs older than that are deleted, so it can't be written.",
            field: NutritionFields.date)
    }

    static let latestZone = TimeZone(secondsFromGMT: -12 * 3600)!
    static let earliestZone = TimeZone(secondsFromGMT: 14 * 3600)!
}
