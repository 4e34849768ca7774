import Foundation
import KithCore
import Testing

/// Seed 003's recurrence: the same occurrences as python-dateutil's rrule (the oracle,
/// Tests/support/rrule_oracle.py) across daylight saving changes, for years.
@Suite("Weekly recurrence")
struct WeeklyRecurrenceTests {
    struct Case: Sendable, CustomStringConvertible {
        let zone: String
        let start: String
        let time: String
        let interval: Int
        let days: [Weekday]
        var description: String { "\(zone) from \(start) \(time) every \(interval) on \(days.map(\.code))" }
    }

    // 02:30 does not exist on spring-forward Sundays in New York and Berlin, and happens twice on
    // Sydney's fall-back Sunday; 01:30 happens twice on New York's fall-back Sunday.
    static let cases = [
        Case(zone: "America/New_York", start: "2026-01-05", time: "02:30", interval: 1, days: [.sunday, .wednesday]),
        Case(zone: "America/New_York", start: "2026-10-01", time: "01:30", interval: 2, days: [.sunday]),
        Case(zone: "Europe/Berlin", start: "2026-02-16", time: "02:30", interval: 1, days: [.sunday]),
        Case(zone: "Europe/Berlin", start: "2026-03-04", time: "08:00", interval: 3, days: [.monday, .friday, .sunday]),
        Case(zone: "Australia/Sydney", start: "2026-03-02", time: "02:30", interval: 1, days: [.sunday, .saturday]),
        Case(zone: "Australia/Sydney", start: "2026-09-27", time: "23:45", interval: 52, days: [.tuesday]),
        Case(zone: "Europe/Berlin", start: "2027-01-01", time: "00:00", interval: 2, days: Weekday.allCases),
    ]

    static func oracle(_ test: Case, count: Int) throws -> [Date] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("support/rrule_oracle.py")
        process.arguments = [
            "python3", script.path, test.zone, test.start, test.time, String(test.interval),
            test.days.map(\.code).joined(separator: ","), String(count),
        ]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw OracleError(message: "the rrule oracle failed (python3 with python-dateutil is needed; ./scripts/test installs it): \(problem)")
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
            .map { Date(timeIntervalSince1970: $0 / 1000) }
    }

    struct OracleError: Error, CustomStringConvertible { let message: String; var description: String { message } }

    @Test(arguments: cases)
    func occurrencesMatchRRuleAcrossDaylightSavingChanges(_ test: Case) throws {
        let zone = try #require(TimeZone(identifier: test.zone))
        let recurrence = try WeeklyRecurrence.make(
            weekdays: Set(test.days), interval: test.interval, start: try #require(LocalDate(test.start)),
            time: try #require(LocalTime(test.time)), timeZone: zone
        ).get()
        let count = test.interval == 52 ? 6 : 300  // several years each
        let expected = try Self.oracle(test, count: count)
        #expect(expected.count == count)
        let beforeStart = try #require(recurrence.moment(on: recurrence.start)).addingTimeInterval(-1)
        let actual = recurrence.occurrences(after: beforeStart, limit: count)
        let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }
        #expect(
            actual == expected,
            "\(test): \(actual.count) occurrences; first difference at \(firstDifference.map { "#\($0.offset): \($0.element.0) vs the oracle's \($0.element.1)" } ?? "the end")")
    }

    @Test func theNextOccurrenceKeepsItsWallClockTimeAcrossDST() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let recurrence = try WeeklyRecurrence.make(
            weekdays: [.monday], interval: 1, start: try #require(LocalDate("2026-03-16")),
            time: try #require(LocalTime("09:00")), timeZone: zone
        ).get()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let hours = recurrence.occurrences(after: .distantPast, limit: 4).map { calendar.component(.hour, from: $0) }
        #expect(hours == [9, 9, 9, 9], "before and after the change on March 29th")
        #expect(recurrence.rrule == "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO;WKST=MO")
    }

    @Test func invalidRecurrencesSayWhy() throws {
        let start = try #require(LocalDate("2026-12-01"))
        let noon = try #require(LocalTime("12:00"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        func problem(_ days: Set<Weekday>, _ interval: Int) -> APIErrorDetail? {
            if case .failure(let problem) = WeeklyRecurrence.make(weekdays: days, interval: interval, start: start, time: noon, timeZone: utc) {
                return problem
            }
            return nil
        }
        #expect(problem([], 1)?.field == "weekdays")
        #expect(problem([.monday], 0)?.field == "interval")
        #expect(problem([.monday], 53)?.message == "Repeat every 1 to 52 weeks.")
        #expect(problem([.monday], 52) == nil)
        #expect(LocalTime("24:00") == nil && LocalTime("9:00") == nil && LocalTime("09:00")?.description == "09:00")
        #expect(Weekday(name: "wed") == .wednesday && Weekday(name: "TH") == .thursday && Weekday(name: "x") == nil)
        #expect(Weekday(try #require(LocalDate("2026-11-25"))) == .wednesday)
    }
}
