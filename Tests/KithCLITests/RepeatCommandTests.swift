import Foundation
import KithCore
import KithTestSupport
import Testing

/// `kith reminders add` and `edit` with daily, weekly and monthly repeats: the flags, the repeat in
/// words and in JSON, a completion moving to the rule's next occurrence, and usage errors that
/// say which flag a frequency needs.
@Suite("kith reminders: repeats")
struct RepeatCommandTests {
    static var starting: String { FamilyCommandTests.dayAfterTomorrow }

    /// The occurrences the rule gives after now, on the family's clock (Berlin), as the device counts them.
    static func expected(_ pattern: RepeatPattern, every: Int = 1, at time: String = "08:00", count: Int) throws
        -> [Date]
    {
        try Recurrence.make(
            pattern, interval: every, start: try #require(LocalDate(starting)), time: try #require(LocalTime(time)),
            timeZone: FamilyCommandTests.berlin
        ).get().occurrences(after: Date(), limit: count)
    }

    static func due(_ object: [String: Any]) -> Date? {
        (object["dueAt"] as? String).flatMap(WireCoding.parseTimestamp)
    }

    @Test("a monthly repeat on the second Tuesday, completed once, then made daily and stopped")
    func monthlyThenDailyThenOnce() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let (parent, _, _) = try await FamilyCommandTests.family(server, home: home)
                let text = await parent.kith([
                    "reminders", "add", "Pay the rent", "--repeats", "monthly", "--on", "second-tue", "--starting",
                    Self.starting, "--at", "08:00",
                ])
                #expect(
                    text.exitCode == 0 && text.stdout.contains("· every month on the second Tuesday at 08:00"),
                    "\(text)")
                let listed = try #require(try await parent.array(["reminders"]).first)
                let id = try #require(listed["id"] as? String)
                #expect(listed["repeats"] as? String == "FREQ=MONTHLY;INTERVAL=1;BYDAY=2TU", "\(listed)")
                let tuesdays = try Self.expected(.monthlyOnWeekday(try #require(MonthlyWeekday(code: "2TU"))), count: 2)
                #expect(Self.due(listed) == tuesdays.first)
                let done = try await parent.object(["reminders", "complete", id])
                #expect(Self.due(done) == tuesdays.last, "the next month's second Tuesday")

                let daily = try await parent.object([
                    "reminders", "edit", id, "--repeats", "daily", "--every", "2", "--starting", Self.starting,
                ])
                #expect(daily["repeats"] as? String == "FREQ=DAILY;INTERVAL=2", "\(daily)")
                #expect(Self.due(daily) == (try Self.expected(.daily, every: 2, at: "09:00", count: 1)).first)
                let once = try await parent.object(["reminders", "edit", id, "--no-repeat"])
                #expect(
                    (once["repeats"] == nil || once["repeats"] is NSNull) && Self.due(once) == Self.due(daily),
                    "\(once)")

                let fifteenth = try await parent.object([
                    "reminders", "add", "Water meter", "--repeats", "monthly", "--day", "31", "--every", "2",
                    "--starting", Self.starting,
                ])
                #expect(fifteenth["repeats"] as? String == "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=31", "\(fifteenth)")
                #expect(
                    Self.due(fifteenth) == (try Self.expected(.monthlyOnDay(31), every: 2, at: "09:00", count: 1)).first
                )
                let weekly = await parent.kith([
                    "reminders", "add", "Bins", "--every", "2", "--on", "mon", "--starting", Self.starting,
                ])
                #expect(weekly.stdout.contains("· every 2 weeks on Mon at 09:00"), "weekly as before: \(weekly)")
            }
        }
    }

    @Test("each frequency asks for its own flags")
    func usageErrors() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let (parent, _, _) = try await FamilyCommandTests.family(server, home: home)
                let cases: [([String], String)] = [
                    (
                        ["--repeats", "monthly", "--starting", Self.starting],
                        "A monthly repeat takes --day (e.g. --day 15) or --on"
                    ),
                    (
                        ["--repeats", "monthly", "--day", "3", "--on", "2tu", "--starting", Self.starting],
                        "one of the two"
                    ),
                    (["--repeats", "monthly", "--on", "ninth-tue", "--starting", Self.starting], "got ninth-tue"),
                    (
                        ["--repeats", "weekly", "--day", "3", "--starting", Self.starting],
                        "--day is for a monthly repeat"
                    ),
                    (
                        ["--repeats", "daily", "--on", "mon", "--starting", Self.starting],
                        "A daily repeat takes no --on or --day."
                    ),
                    (["--repeats", "hourly", "--starting", Self.starting], "--repeats takes daily, weekly or monthly"),
                    (["--repeats", "daily"], "A repeat needs --starting"),
                ]
                for (flags, says) in cases {
                    let refused = await parent.kith(["reminders", "add", "X"] + flags)
                    #expect(refused.exitCode == 64 && refused.stderr.contains(says), "\(flags): \(refused)")
                }
                let tooOften = await parent.kith([
                    "reminders", "add", "X", "--repeats", "monthly", "--day", "3", "--every", "13", "--starting",
                    Self.starting,
                ])
                #expect(
                    tooOften.exitCode == 1 && tooOften.stderr == "error: Repeat every 1 to 12 months.\n", "\(tooOften)")
                #expect(try await parent.array(["reminders"]).isEmpty, "nothing was added")
            }
        }
    }
}
