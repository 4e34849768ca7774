import Foundation

/// A day of the week, Monday first (ISO 8601 and RFC 5545's `WKST=MO`).
public enum Weekday: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case monday = 0, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The day `date` falls on. 1970-01-01 was a Thursday.
    public init(_ date: LocalDate) {
        self = Weekday(rawValue: ((date.dayNumber % 7) + 7 + 3) % 7) ?? .monday
    }

    /// RFC 5545's two letters: "MO", "TU", …
    public var code: String { ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][rawValue] }

    /// "mon", "monday" or RFC 5545's "MO", in any case.
    public init?(name: String) {
        let lower = name.lowercased()
        guard
            let found = Weekday.allCases.first(where: { day in
                let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.rawValue]
                return lower == full || lower == String(full.prefix(3)) || lower == day.code.lowercased()
            })
        else { return nil }
        self = found
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}
