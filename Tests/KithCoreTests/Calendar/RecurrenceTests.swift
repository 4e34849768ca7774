import Foundation
import KithCore
import Testing

/// A reminder's repeat, daily, weekly and monthly: the same occurrences as python-dateutil's
/// rrule (the oracle, Tests/support/rrule_oracle.py) across daylight saving changes, for years.
/// The oracle reads the rule as written in each case; Kith's own RRULE text of the recurrence must
/// be that same rule.
@Suite("Recurrence")
struct RecurrenceTests {
    struct Case: Sendable, CustomStringConvertible {
        let zone: String
        let start: String
        let time: String
        let pattern: RepeatPattern
        let interval: Int
        /// The rule as RFC 5545 writes it, which the oracle counts.
        let rule: String
        var count = 300
        var description: String { "\(zone) from \(start) \(time): \(rule)" }
    }

    static func place(_ ordinal: Int, _ day: Weekday) -> RepeatPattern {
        .monthlyOnWeekday(MonthlyWeekday(ordinal: ordinal, weekday: day)!)
    }

    // 02:30 does not exist on spring-forward Sundays in New York (the second Sunday of March) and
    // Berlin (the last Sunday of March), and happens twice on Sydney's fall-back Sunday (the first of
    // April) and Berlin's (the last of October); 01:30 happens twice on New York's fall-back Sunday
    // (the first of November).
    static let weekly = [
        Case(
            zone: "America/New_York", start: "2026-01-05", time: "02:30", pattern: .weekly([.sunday, .wednesday]),
            interval: 1, rule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=WE,SU;WKST=MO"),
        Case(
            zone: "America/New_York", start: "2026-10-01", time: "01:30", pattern: .weekly([.sunday]), interval: 2,
            rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;WKST=MO"),
        Case(
            zone: "Europe/Berlin", start: "2026-02-16", time: "02:30", pattern: .weekly([.sunday]), interval: 1,
            rule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=SU;WKST=MO"),
        Case(
            zone: "Europe/Berlin", start: "2026-03-04", time: "08:00", pattern: .weekly([.monday, .friday, .sunday]),
            interval: 3, rule: "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR,SU;WKST=MO"),
        Case(
            zone: "Australia/Sydney", start: "2026-03-02", time: "02:30", pattern: .weekly([.sunday, .saturday]),
            interval: 1, rule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=SA,SU;WKST=MO"),
        Case(
            zone: "Australia/Sydney", start: "2026-09-27", time: "23:45", pattern: .weekly([.tuesday]), interval: 52,
            rule: "FREQ=WEEKLY;INTERVAL=52;BYDAY=TU;WKST=MO", count: 6),
        Case(
            zone: "Europe/Berlin", start: "2027-01-01", time: "00:00", pattern: .weekly(Set(Weekday.allCases)),
            interval: 2, rule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TU,WE,TH,FR,SA,SU;WKST=MO"),
    ]

    static let daily = [
        Case(
            zone: "America/New_York", start: "2026-03-01", time: "02:30", pattern: .daily, interval: 1,
            rule: "FREQ=DAILY;INTERVAL=1"),
        Case(
            zone: "America/New_York", start: "2026-10-20", time: "01:30", pattern: .daily, interval: 1,
            rule: "FREQ=DAILY;INTERVAL=1"),
        Case(
            zone: "Europe/Berlin", start: "2026-03-20", time: "02:30", pattern: .daily, interval: 3,
            rule: "FREQ=DAILY;INTERVAL=3"),
        Case(
            zone: "Australia/Sydney", start: "2026-03-30", time: "02:30", pattern: .daily, interval: 2,
            rule: "FREQ=DAILY;INTERVAL=2"),
        Case(
            zone: "Asia/Kolkata", start: "2026-01-01", time: "23:45", pattern: .daily, interval: 365,
            rule: "FREQ=DAILY;INTERVAL=365", count: 6),
    ]

    static let monthly = [
        // The 31st: only in months that have one (RFC 5545, dateutil).
        Case(
            zone: "Europe/Berlin", start: "2026-01-31", time: "02:30", pattern: .monthlyOnDay(31), interval: 1,
            rule: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=31"),
        // The 29th: on Berlin's spring-forward day in 2026, and February only in leap years.
        Case(
            zone: "Europe/Berlin", start: "2026-01-29", time: "02:30", pattern: .monthlyOnDay(29), interval: 1,
            rule: "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=29"),
        Case(
            zone: "Australia/Sydney", start: "2026-04-01", time: "23:45", pattern: .monthlyOnDay(15), interval: 12,
            rule: "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=15", count: 6),
        Case(
            zone: "America/New_York", start: "2026-01-20", time: "02:30", pattern: place(2, .sunday), interval: 1,
            rule: "FREQ=MONTHLY;INTERVAL=1;BYDAY=2SU"),
        Case(
            zone: "America/New_York", start: "2026-01-01", time: "01:30", pattern: place(1, .sunday), interval: 1,
            rule: "FREQ=MONTHLY;INTERVAL=1;BYDAY=1SU"),
        Case(
            zone: "Europe/Berlin", start: "2026-01-01", time: "02:30", pattern: place(-1, .sunday), interval: 1,
            rule: "FREQ=MONTHLY;INTERVAL=1;BYDAY=-1SU"),
        Case(
            zone: "Australia/Sydney", start: "2026-02-10", time: "08:00", pattern: place(-1, .friday), interval: 2,
            rule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR"),
        Case(
            zone: "Europe/Berlin", start: "2026-11-25", time: "08:00", pattern: place(2, .tuesday), interval: 3,
            rule: "FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU"),
        // Fifth Mondays: only the months that have one.
        Case(
            zone: "America/New_York", start: "2026-01-01", time: "09:00", pattern: place(5, .monday), interval: 1,
            rule: "FREQ=MONTHLY;INTERVAL=1;BYDAY=5MO"),
    ]

    static func oracle(_ test: Case) throws -> [Date] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("support/rrule_oracle.py")
        process.arguments = ["python3", script.path, test.zone, test.start, test.time, test.rule, String(test.count)]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OracleError(
                message:
                    "the rrule oracle failed (python3 with python-dateutil is needed; ./scripts/test installs it): \(problem)"
            )
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
            .map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    struct OracleError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    func expectTheOracle(_ test: Case) throws {
        let zone = try #require(TimeZone(identifier: test.zone))
        let recurrence = try Recurrence.make(
            test.pattern, interval: test.interval, start: try #require(LocalDate(test.start)),
            time: try #require(LocalTime(test.time)), timeZone: zone
        ).get()
        #expect(recurrence.rrule == test.rule)
        let expected = try Self.oracle(test)
        #expect(expected.count == test.count)
        let beforeStart = try #require(recurrence.moment(on: recurrence.start)).addingTimeInterval(-1)
        let actual = recurrence.occurrences(after: beforeStart, limit: test.count)
        let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            actual == expected,
            "\(test): \(actual.count) occurrences; first difference at \(firstDifference.map { "#\($0.offset): \($0.element.0) vs the oracle's \($0.element.1)" } ?? "the end")"
        )
        // From the middle of the series too: the next occurrence after each one is the one after it.
        for index in stride(from: 0, to: min(actual.count, expected.count) - 1, by: 37) {
            #expect(recurrence.next(after: actual[index]) == expected[index + 1], "\(test): after #\(index)")
        }
    }

    @Test(arguments: weekly)
    func weeklyOccurrencesMatchRRuleAcrossDaylightSavingChanges(_ test: Case) throws { try expectTheOracle(test) }

    @Test(arguments: daily)
    func dailyOccurrencesMatchRRuleAcrossDaylightSavingChanges(_ test: Case) throws { try expectTheOracle(test) }

    @Test(arguments: monthly)
    func monthlyOccurrencesMatchRRuleAcrossDaylightSavingChanges(_ test: Case) throws { try expectTheOracle(test) }

    @Test func theNextOccurrenceKeepsItsWallClockTimeAcrossDST() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        for pattern in [RepeatPattern.weekly([.monday]), .daily, .monthlyOnDay(23)] {
            let recurrence = try Recurrence.make(
                pattern, interval: 1, start: try #require(LocalDate("2026-03-16")),
                time: try #require(LocalTime("09:00")), timeZone: zone
            ).get()
            let hours = recurrence.occurrences(after: .distantPast, limit: 4).map {
                calendar.component(.hour, from: $0)
            }
            #expect(hours == [9, 9, 9, 9], "\(pattern): before and after the change on March 29th")
        }
    }

    @Test func invalidRecurrencesSayWhy() throws {
        let start = try #require(LocalDate("2026-12-01"))
        let noon = try #require(LocalTime("12:00"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        func problem(_ pattern: RepeatPattern, _ interval: Int) -> APIErrorDetail? {
            if case .failure(let problem) = Recurrence.make(
                pattern, interval: interval, start: start, time: noon, timeZone: utc)
            {
                return problem
            }
            return nil
        }
        #expect(problem(.weekly([]), 1)?.field == "weekdays")
        #expect(problem(.weekly([.monday]), 0)?.field == "interval")
        #expect(problem(.weekly([.monday]), 53)?.message == "Repeat every 1 to 52 weeks.")
        #expect(problem(.weekly([.monday]), 52) == nil)
        #expect(problem(.daily, 365) == nil && problem(.daily, 366)?.message == "Repeat every 1 to 365 days.")
        #expect(
            problem(.monthlyOnDay(31), 12) == nil
                && problem(.monthlyOnDay(31), 13)?.message == "Repeat every 1 to 12 months.")
        #expect(problem(.monthlyOnDay(32), 1)?.field == "monthDay" && problem(.monthlyOnDay(0), 1)?.field == "monthDay")
        #expect(
            MonthlyWeekday(ordinal: 0, weekday: .monday) == nil && MonthlyWeekday(ordinal: -2, weekday: .monday) == nil)
        #expect(MonthlyWeekday(ordinal: 6, weekday: .monday) == nil)
        #expect(MonthlyWeekday(code: "-1fr")?.code == "-1FR" && MonthlyWeekday(code: "+2TU")?.code == "2TU")
        #expect(
            MonthlyWeekday(code: "TU") == nil && MonthlyWeekday(code: "2XX") == nil && MonthlyWeekday(code: "") == nil)
        #expect(LocalTime("24:00") == nil && LocalTime("9:00") == nil && LocalTime("09:00")?.description == "09:00")
        #expect(Weekday(name: "wed") == .wednesday && Weekday(name: "TH") == .thursday && Weekday(name: "x") == nil)
        #expect(Weekday(try #require(LocalDate("2026-11-25"))) == .wednesday)
    }

    @Test func aRepeatSaysItselfInWords() throws {
        let start = try #require(LocalDate("2026-12-01"))
        let time = try #require(LocalTime("08:00"))
        func words(_ pattern: RepeatPattern, _ interval: Int = 1) throws -> String {
            try Recurrence.make(pattern, interval: interval, start: start, time: time, timeZone: .gmt).get().summary
        }
        #expect(try words(.daily) == "Every day at 08:00")
        #expect(try words(.daily, 3) == "Every 3 days at 08:00")
        #expect(try words(.weekly([.wednesday, .monday]), 2) == "Every 2 weeks on Mon, Wed at 08:00")
        #expect(try words(.monthlyOnDay(15)) == "Every month on the 15th at 08:00")
        #expect(try words(.monthlyOnDay(22), 2) == "Every 2 months on the 22nd at 08:00")
        #expect(try words(Self.place(2, .tuesday)) == "Every month on the second Tuesday at 08:00")
        #expect(try words(Self.place(-1, .friday), 3) == "Every 3 months on the last Friday at 08:00")
        #expect((1...31).map(Recurrence.ordinalNumber).filter { $0.hasSuffix("st") } == ["1st", "21st", "31st"])
        #expect(
            Recurrence.ordinalNumber(11) == "11th" && Recurrence.ordinalNumber(12) == "12th"
                && Recurrence.ordinalNumber(23) == "23rd")
    }
}
