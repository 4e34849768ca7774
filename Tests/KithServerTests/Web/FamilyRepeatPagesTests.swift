import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The reminder form's "Repeats" choice: daily, weekly and monthly repeats made and changed through
/// the pages, said in words on the reminder's page and in the list, and refused next to the
/// field at fault with nothing stored. The test clock starts on Wednesday 18 November 2026 (Berlin).
@Suite("Family web pages: repeats")
struct FamilyRepeatPagesTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    static func tomorrow(_ server: TestServer) -> LocalDate {
        LocalDate(server.clock.now, in: berlin).adding(days: 1)
    }

    @Test(arguments: Engine.available)
    func aMonthlyRepeatOnTheSecondTuesdayIsMadeSaidAndMovedToDaily(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let start = Self.tomorrow(server)
            let fields = [
                "title": "Pay the rent", "dueAt": "", "assigneeId": family.parentID, "repeatFrequency": "monthly",
                // A ticked weekday left from trying weekly is not part of a monthly repeat.
                "repeat.FR": "on", "repeatMonthly": "weekday", "repeatOrdinal": "2", "repeatWeekday": "TU",
                "repeatMonthDay": "19", "repeatInterval": "1", "repeatStart": start.description, "repeatTime": "08:00",
            ]
            let preview = try await family.parent.get(
                client,
                "/family/reminders/occurrences?repeatFrequency=monthly&repeatMonthly=weekday&repeatOrdinal=2&repeatWeekday=TU&repeatInterval=1&repeatStart=\(start)&repeatTime=08:00"
            )
            #expect(
                preview.text.contains(#""occurrences":["Tue 8 Dec, 08:00","Tue 12 Jan 2027, 08:00""#), "\(preview.text)"
            )

            let created = try await family.parent.post(client, "/family/reminders", form: fields)
            #expect(created.status == .found, "\(created.text)")
            let id = try #require(FamilyPagesTests.reminderID(created))
            let stored = try #require(
                try await FamilyPagesTests.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(stored.fields["repeatFrequency"] == .string("monthly"))
            #expect(stored.fields["repeatMonthWeekday"] == .string("2TU"))
            #expect(stored.fields["repeatDays"] == .null && stored.fields["repeatMonthDay"] == .null)
            #expect(stored.fields["dueAt"] == .string("2026-12-08T07:00:00.000Z"), "08:00 in Berlin, winter time")

            let page = try await family.parent.get(client, "/family/reminders/\(id)")
            #expect(page.text.contains("Every month on the second Tuesday at 08:00"))
            let list = try await family.parent.get(client, "/family")
            #expect(list.text.contains("Every month on the second Tuesday at 08:00"))
            let form = try await family.parent.get(client, "/family/reminders/\(id)/edit")
            #expect(form.text.contains(#"<option value="monthly" selected>Monthly</option>"#))
            #expect(form.text.contains(#"<option value="2" selected>second</option>"#))
            #expect(form.text.contains(#"<option value="TU" selected>Tuesday</option>"#))
            #expect(form.text.contains(#"id="repeat-monthly-weekday" name="repeatMonthly" value="weekday" checked"#))

            // Every 3 days from tomorrow: the monthly fields are cleared, the first occurrence due.
            let seen = FamilyPagesTests.seenFields(in: form.text)
            var daily = fields.merging(seen) { typed, _ in typed }
            daily["repeatFrequency"] = "daily"
            daily["repeatInterval"] = "3"
            let edited = try await family.parent.post(client, "/family/reminders/\(id)/edit", form: daily)
            #expect(edited.status == .found, "\(edited.text)")
            let changed = try #require(
                try await FamilyPagesTests.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(
                changed.fields["repeatFrequency"] == .string("daily") && changed.fields["repeatInterval"] == .int(3))
            #expect(changed.fields["repeatMonthWeekday"] == .null && changed.fields["repeatDays"] == .null)
            #expect(changed.fields["dueAt"] == .string("\(start)T07:00:00.000Z"))
            #expect(
                try await family.parent.get(client, "/family/reminders/\(id)").text.contains("Every 3 days at 08:00"))
        }
    }

    @Test(arguments: Engine.available)
    func aRepeatMissingWhatItsChoiceNeedsIsRefusedNextToThatField(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let base = [
                "title": "Water the plants", "dueAt": "", "assigneeId": family.parentID,
                "repeatInterval": "1", "repeatStart": Self.tomorrow(server).description, "repeatTime": "08:00",
            ]
            let cases: [([String: String], String, String)] = [
                (["repeatFrequency": "weekly"], "repeatDays", "Choose at least one day of the week."),
                (
                    ["repeatFrequency": "monthly", "repeatMonthly": "day", "repeatMonthDay": ""],
                    "reminder-repeatMonthDay",
                    "Choose a day of the month from 1 to 31."
                ),
                (
                    ["repeatFrequency": "monthly", "repeatMonthly": "day", "repeatMonthDay": "32"],
                    "reminder-repeatMonthDay",
                    "Choose a day of the month from 1 to 31."
                ),
                (
                    [
                        "repeatFrequency": "monthly", "repeatMonthly": "weekday", "repeatOrdinal": "6",
                        "repeatWeekday": "TU",
                    ],
                    "reminder-repeatMonthWeekday", "Choose which weekday of the month: first to fifth, or last."
                ),
                (
                    [
                        "repeatFrequency": "monthly", "repeatMonthly": "day", "repeatMonthDay": "5",
                        "repeatInterval": "13",
                    ],
                    "reminder-repeatInterval", "Repeat every 1 to 12 months."
                ),
                (
                    ["repeatFrequency": "daily", "repeatInterval": "366"], "reminder-repeatInterval",
                    "Repeat every 1 to 365 days."
                ),
                (["repeatFrequency": "yearly"], "reminder-repeatFrequency", "Choose never, daily, weekly or monthly."),
            ]
            for (extra, field, message) in cases {
                let refused = try await family.parent.post(
                    client, "/family/reminders", form: base.merging(extra) { $1 })
                #expect(refused.status == .unprocessableContent, "\(extra)")
                #expect(
                    refused.text.contains(#"<p id="\#(field)-error" class="field-error">\#(message)</p>"#),
                    "\(extra): \(refused.text.components(separatedBy: "field-error").dropFirst().first ?? "no error shown")"
                )
            }
            #expect(try await FamilyPagesTests.pulled(client, family.parentDevice, FamilyEntities.reminder).isEmpty)

            // The 31st: months without one are skipped, and the form says so.
            let created = try await family.parent.post(
                client, "/family/reminders",
                form: base.merging(["repeatFrequency": "monthly", "repeatMonthly": "day", "repeatMonthDay": "31"]) {
                    $1
                })
            #expect(created.status == .found)
            let id = try #require(FamilyPagesTests.reminderID(created))
            let page = try await family.parent.get(client, "/family/reminders/\(id)/edit")
            #expect(page.text.contains("A month without that day (the 31st in April, a fifth Monday) is skipped"))
            #expect(
                page.text.contains(
                    "<li>Thu 31 Dec, 08:00</li><li>Sun 31 Jan 2027, 08:00</li><li>Wed 31 Mar 2027, 08:00</li>"),
                "no 31st in November or February")
        }
    }
}
