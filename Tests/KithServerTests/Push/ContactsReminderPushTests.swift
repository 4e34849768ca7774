import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The Contacts app's dated reminders pushed at the person's hour on their zone's clock
/// (docs/push.md, "Contacts reminders"), end to end through the stand-in push service.
@Suite("Web Push: Contacts reminders")
struct ContactsReminderPushTests {
    @Test func aDaysPushTimeIsTheHourOnTheZonesClockAndStaysDueForTheWindow() throws {
        let kolkata = ReminderTime(hour: 8, zoneID: "Asia/Kolkata")
        // 2027-01-15 02:30 UTC is 08:00 in Kolkata (UTC+5:30).
        let eight: Int64 = 1_799_980_200_000
        let hour: Int64 = 3_600_000
        #expect(kolkata.daysDue(now: eight - 1, window: 3 * hour).isEmpty, "not before the hour")
        let due = kolkata.daysDue(now: eight + hour, window: 3 * hour)
        #expect(due.map(\.date.ymd) == ["2027-01-15"] && due.map(\.at) == [eight])
        #expect(kolkata.daysDue(now: eight + 3 * hour, window: 3 * hour).isEmpty, "the window has passed")
        // 23:00 in Kolkata is still due at 01:00 the next day, for that day.
        let late = ReminderTime(hour: 23, zoneID: "Asia/Kolkata")
        #expect(late.daysDue(now: eight - 7 * hour, window: 3 * hour).map(\.date.ymd) == ["2027-01-14"])
        #expect(ReminderTime(hour: 8, zoneID: "Not/AZone").daysDue(now: eight, window: hour).isEmpty)
    }

    @Test(arguments: Engine.available)
    func aRemindersDayIsPushedOnceAtThePersonsHour(engine: Engine) async throws {
        try await PushDeliveryTests.withServer(engine, devices: ["phone", "laptop"]) { server, client, push in
            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let token = try await PushAccountPageTests.token(client)
            let me = try await client.call(.get, "/v1/me", token: token).decode(UserDTO.self)
            for (device, kinds) in [("phone", ["contacts_reminder"]), ("laptop", ["due"])] {
                let response = try await PushRoutesTests.subscribe(
                    client, token, try push.subscription(device, kinds: kinds, name: device))
                #expect(response.status == .created)
            }
            // Two hours on, on the clock of Kolkata (half an hour off UTC's quarters too).
            let zone = try #require(TimeZone(identifier: "Asia/Kolkata"))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let soon = server.clock.now.addingTimeInterval(2 * 3600 + 60)
            let hour = calendar.component(.hour, from: soon)
            let at = try #require(calendar.date(bySettingHour: hour, minute: 0, second: 0, of: soon))
            let day = { (date: Date) in
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            }
            let saved = try await browser.post(
                client, "/account/reminder-time", form: ["hour": "\(hour)", "timeZone": "Asia/Kolkata"])
            #expect(saved.status == .ok)
            #expect(saved.text.contains("Contacts reminders come at"), "\(saved.text.prefix(300))")
            let refused = try await browser.post(
                client, "/account/reminder-time", form: ["hour": "24", "timeZone": "Mars/Base"])
            #expect(refused.status == .unprocessableContent && refused.text.contains("Choose an hour from 0 to 23."))

            let api = MonicaUser(client: client, token: token)
            let marie = try await api.contact("Marie", "Curie")
            var reminders: [Int64] = []
            for (title, date) in [
                ("Marie's birthday", day(at)), ("Pierre's birthday", day(at.addingTimeInterval(86_400))),
            ] {
                let made = try await api.post(
                    "/api/reminders",
                    [
                        "contact_id": .int(marie), "title": .string(title), "initial_date": .string(date),
                        "frequency_type": "year", "frequency_number": 1,
                    ])
                #expect(made.status == .created, "\(made.text)")
                reminders.append(try #require(made.dataID))
            }

            server.clock.set(to: at.addingTimeInterval(-60))
            try await server.app.jobsCaughtUp()
            try await server.app.jobsCaughtUp()
            #expect(try push.received().isEmpty, "not before the hour")
            server.clock.set(to: at)
            try await eventually { try push.received(by: "phone").count == 1 }
            let message = try #require(try push.received(by: "phone").first)
            #expect(message.error == nil, "\(message.error ?? "")")
            let payload = try #require(message.payload)
            #expect(payload.title == "Marie's birthday" && payload.body == "Marie Curie")
            #expect(payload.kind == .contactsReminder && payload.url == "/contacts/\(marie)")
            #expect(payload.tag.hasPrefix("contact-reminder:") && payload.tag.hasSuffix(day(at)))
            #expect(payload.at == at)
            #expect(message.urgency == "normal" && message.ttl == "86400")

            // Later quarters of the same day push nothing again.
            server.clock.advance(by: 45 * 60)
            try await server.app.jobsCaughtUp()
            try await server.app.jobsCaughtUp()
            #expect(try push.received(by: "phone").count == 1)
            // The next day has its own, planned once. (Its message is not checked here: the stand-in
            // judges the VAPID token's expiry by the wall clock, a day behind the test's now.)
            server.clock.set(to: at.addingTimeInterval(86_400))
            try await server.app.jobsCaughtUp()
            try await server.app.jobsCaughtUp()
            let jobs = try await PushDeliveryTests.pushJobs(server)
            #expect(jobs.allSatisfy { !$0.payload.contains(me.id.lowercased) }, "no user id kept in the jobs table")
            let keys = jobs.map(\.key)
            #expect(keys.count == 2, "\(keys)")
            #expect(keys.contains { $0.hasPrefix("push:contacts-reminder-\(reminders[0])-\(day(at)):") })
            #expect(
                keys.contains {
                    $0.hasPrefix("push:contacts-reminder-\(reminders[1])-\(day(at.addingTimeInterval(86_400))):")
                })
            #expect(try push.received(by: "laptop").isEmpty, "a device that did not ask for them")
        }
    }
}
