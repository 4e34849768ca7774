import ArgumentParser
import Foundation
import KithCore
import KithKit

/// How a reminder repeats, on `add` and `edit`: `--repeats daily|weekly|monthly` (weekly when only
/// `--every` is given, as before monthly and daily existed), `--every N` (days, weeks or months;
/// default 1), `--on` (weekly: days such as mon,wed; monthly: a weekday's place such as 2tue,
/// second-tuesday or last-fri), `--day` (monthly: a day of the month, 1-31), `--starting DATE`,
/// `--at HH:mm`.
struct RepeatOptions: ParsableArguments {
    @Option(help: "daily, weekly or monthly (weekly when only --every is given).") var repeats: String?
    @Option(help: "Every N days (1-365), weeks (1-52) or months (1-12). Default 1.") var every: Int?
    @Option(help: "Weekly: the days, e.g. mon,wed. Monthly: a weekday's place, e.g. 2tue, second-tuesday, last-fri.")
    var on: String?
    @Option(help: "Monthly: the day of the month (1-31; months without it are skipped).") var day: Int?
    @Option(help: "From this day (yyyy-MM-dd, today or later).") var starting: String?
    @Option(help: "At this time of day (HH:mm, the family's time zone). Default 09:00.") var at: String?

    /// Whether any repeat option was given.
    var given: Bool { repeats != nil || every != nil || on != nil || day != nil || starting != nil || at != nil }

    /// The frequency asked for, nil when the options ask for no repeat.
    func frequency() throws -> RepeatFrequency? {
        guard given else { return nil }
        guard let repeats else {
            guard every != nil else {
                throw ValidationError("--on, --day, --starting and --at go with --every or --repeats.")
            }
            return .weekly
        }
        guard let frequency = RepeatFrequency(rawValue: repeats.lowercased()) else {
            throw ValidationError("--repeats takes daily, weekly or monthly, got \(repeats).")
        }
        return frequency
    }

    /// The schedule the options describe; nil when they describe none. Each frequency takes
    /// exactly its own options.
    func schedule() throws -> ReminderSchedule? {
        guard let frequency = try frequency() else { return nil }
        let pattern: RepeatPattern
        switch frequency {
        case .daily:
            guard on == nil, day == nil else { throw ValidationError("A daily repeat takes no --on or --day.") }
            pattern = .daily
        case .weekly:
            guard day == nil else { throw ValidationError("--day is for a monthly repeat; a weekly one takes --on.") }
            guard let on else { throw ValidationError("A weekly repeat needs --on, e.g. --on mon,wed.") }
            pattern = .weekly(try ReminderInput.weekdays(on))
        case .monthly:
            switch (day, on) {
            case (let day?, nil): pattern = .monthlyOnDay(day)
            case (nil, let on?): pattern = .monthlyOnWeekday(try Self.monthlyWeekday(on))
            default:
                throw ValidationError(
                    "A monthly repeat takes --day (e.g. --day 15) or --on (e.g. --on second-tuesday), one of the two.")
            }
        }
        guard let starting else { throw ValidationError("A repeat needs --starting, the day it starts (yyyy-MM-dd).") }
        return ReminderSchedule(
            pattern, interval: every ?? 1, start: try ReminderInput.date(starting, option: "--starting"),
            time: try ReminderInput.time(at ?? "09:00"))
    }

    static let ordinalWords: [String: Int] = [
        "first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5,
        "5th": 5, "last": -1,
    ]

    /// "2TU", "2tue", "second-tuesday", "2nd tue", "last-fri".
    static func monthlyWeekday(_ text: String) throws -> MonthlyWeekday {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let code = MonthlyWeekday(code: lower) { return code }
        let pieces = lower.split(whereSeparator: { $0 == "-" || $0 == " " }).map(String.init)
        let split: (String, String)? =
            if pieces.count == 2 {
                (pieces[0], pieces[1])
            } else if let digits = lower.firstIndex(where: { !$0.isNumber }), digits != lower.startIndex {
                (String(lower[..<digits]), String(lower[digits...]))
            } else {
                nil
            }
        if let (place, name) = split, let ordinal = ordinalWords[place] ?? Int(place),
            let weekday = Weekday(name: name),
            let found = MonthlyWeekday(ordinal: ordinal, weekday: weekday)
        {
            return found
        }
        throw ValidationError(
            "--on for a monthly repeat is a weekday's place in the month: first to fifth or last, and a day, e.g. second-tue or last-fri; got \(text)."
        )
    }
}
