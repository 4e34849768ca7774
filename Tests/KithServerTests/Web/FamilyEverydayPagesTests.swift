import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The Family pages' everyday completeness, on both engines: the place's fields chosen or not, the
/// time zone typed and read, completing with items not ticked asked first (and told to the
/// parents), notices whose reminder was completed or deleted since, and only the actions the
/// rules allow offered to a child and to a parent.
@Suite("Family web pages: everyday")
struct FamilyEverydayPagesTests {
    typealias Pages = FamilyPagesTests

    @Test(arguments: Engine.available)
    func aPlaceIsOnlyWhereOneIsChosen(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Pages.founded(client)
            let base = [
                "title": "Walk the dog", "dueAt": Pages.tomorrow(server), "assigneeId": family.childID,
                "latitude": "48.858370", "longitude": "2.294481",
            ]
            let form = try await family.parent.get(client, "/family/reminders/new")
            #expect(form.text.contains(#"id="where-anywhere" name="where" value="anywhere" checked"#))
            #expect(form.text.contains(#"id="reminder-latitude""#), "rendered, for a page without the script")
            let noPlace = try await family.parent.post(
                client, "/family/reminders", form: base.merging(["where": "anywhere"]) { $1 })
            #expect(noPlace.status == .found)
            let stored = try #require(
                try await Pages.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(stored.fields["latitude"] == nil, "numbers left in hidden fields are not a place")

            let missing = try await family.parent.post(
                client, "/family/reminders",
                form: base.merging(["where": "place", "latitude": "", "longitude": ""]) { $1 })
            #expect(missing.status == .unprocessableContent)
            #expect(
                missing.text.contains(
                    #"<p id="reminder-latitude-error" class="field-error">Type the place&#39;s latitude"#))
            #expect(missing.text.contains(#"id="place-fields" data-has-errors="true""#), "shown with its refusal")
            let placed = try await family.parent.post(
                client, "/family/reminders", form: base.merging(["where": "place"]) { $1 })
            let id = try #require(Pages.reminderID(placed))
            let edit = try await family.parent.get(client, "/family/reminders/\(id)/edit")
            #expect(edit.text.contains(#"id="where-place" name="where" value="place" checked"#))
        }
    }

    @Test(arguments: Engine.available)
    func theTimeZoneIsTypedAndReadAsTheZoneMeant(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (parent, _) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
            let start = try await parent.get(client, "/family")
            #expect(
                start.text.contains(#"list="time-zones""#) && start.text.contains(#"<option value="Europe/Berlin">"#))
            let refused = try await parent.post(
                client, "/family/create",
                form: ["name": "The Lovelaces", "timeZone": "Mars/Olympus", "displayName": "Ada"])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.text.contains(#"id="create-timeZone-error""#) && refused.text.contains(#"value="Mars/Olympus""#)
            )
            let made = try await parent.post(
                client, "/family/create", form: ["name": "The Lovelaces", "timeZone": "berlin", "displayName": "Ada"])
            #expect(made.status == .found)
            #expect(try await parent.get(client, "/family/members").text.contains(#"value="Europe/Berlin""#))
            let moved = try await parent.post(
                client, "/family/settings", form: ["name": "The Lovelaces", "timeZone": "new york", "snoozeLimit": "3"])
            #expect(moved.status == .found)
            #expect(try await parent.get(client, "/family/members").text.contains(#"value="America/New_York""#))
            let typo = try await parent.post(
                client, "/family/settings",
                form: ["name": "The Lovelaces", "timeZone": "Europe/Berlinn", "snoozeLimit": "3"])
            #expect(typo.status == .unprocessableContent)
            #expect(
                typo.text.contains(#"id="settings-timeZone-error""#) && typo.text.contains(#"value="Europe/Berlinn""#))
        }
    }

    @Test(arguments: Engine.available)
    func completingWithItemsNotTickedAsksFirstAndThePrentsAreToldWhatWasLeft(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await Pages.founded(client)
            let created = try await family.parent.post(
                client, "/family/reminders",
                form: [
                    "title": "Groceries", "dueAt": Pages.tomorrow(server), "assigneeId": family.childID,
                    "checklist.0.text": "Milk", "checklist.1.text": "Bread", "checklist.2.text": "Eggs",
                ])
            let id = try #require(Pages.reminderID(created))
            let eggs = try #require(
                try await Pages.pulled(client, family.childDevice, FamilyEntities.checklistItem).first {
                    $0.fields["text"] == .string("Eggs")
                })
            _ = try await family.child.post(
                client, "/family/reminders/\(id)/items/\(eggs.id.lowercased)", form: ["done": "true"])

            let asked = try await family.child.post(
                client, "/family/reminders/\(id)/complete", form: ["back": "/family/reminders/\(id)"])
            #expect(asked.status == .ok)
            #expect(asked.text.contains("2 items are not ticked: Milk, Bread. Complete anyway?"))
            #expect(asked.text.contains(#"<input type="hidden" name="anyway" value="1">"#))
            #expect(asked.text.contains(#"id="complete-anyway-cancel" href="/family/reminders/\#(id)""#))
            let stillPending = try #require(
                try await Pages.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(stillPending.fields["status"] == .string("pending"), "asking changes nothing")

            let done = try await family.child.post(
                client, "/family/reminders/\(id)/complete", form: ["anyway": "1", "back": "/family/reminders/\(id)"])
            #expect(done.status == .found)
            let completed = try #require(
                try await Pages.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(completed.fields["status"] == .string("completed"))
            #expect(completed.fields["completedUnticked"] == .string("Milk\nBread"))

            server.clock.advance(by: FamilyLimits.undoSeconds + 1)
            let inbox = { () async throws -> InboxPage in
                try await client.call(
                    .get, "/v1/inbox?timeZone=Europe/Berlin", token: family.parentDevice.accessToken
                ).decode(InboxPage.self)
            }
            try await eventually { try await inbox().notices.contains { $0.kind == .completion } }
            let told = try #require(try await inbox().notices.first { $0.kind == .completion })
            #expect(told.title == "Byron completed Groceries")
            #expect(told.body.hasSuffix("; not ticked: Milk, Bread."), "\(told.body)")
        }
    }

    @Test(arguments: Engine.available)
    func aNoticeWhoseReminderWasCompletedOrDeletedSinceSaysSo(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await Pages.founded(client)
            func remind(_ title: String) async throws -> String {
                let due = FamilyFormat.fieldValue(
                    server.clock.now.addingTimeInterval(600), in: TimeZone(identifier: "Europe/Berlin")!)
                let made = try await family.parent.post(
                    client, "/family/reminders", form: ["title": title, "dueAt": due, "assigneeId": family.childID])
                return try #require(Pages.reminderID(made))
            }
            let homework = try await remind("Homework")
            let piano = try await remind("Piano")
            server.clock.advance(by: 600)
            try await server.app.jobsCaughtUp()
            let before = try await family.child.get(client, "/family/notices")
            #expect(before.text.components(separatedBy: #"data-kind="due""#).count - 1 == 2)
            #expect(!before.text.contains("since</span>"))

            _ = try await family.child.post(client, "/family/reminders/\(homework)/complete", form: [:])
            _ = try await family.parent.post(client, "/family/reminders/\(piano)/delete", form: [:])
            let after = try await family.child.get(client, "/family/notices")
            #expect(after.text.contains(#"class="notice-since" id="since-"#))
            #expect(after.text.contains(">Completed since</span>") && after.text.contains(">Deleted since</span>"))
            // The before-due notices were past their due time when the clock got there: only the due
            // ones came, one a reminder.
            #expect(after.text.components(separatedBy: "is-stale").count - 1 == 2)

            // The inbox's JSON says the same, for an app to show.
            let inbox = try await client.call(.get, "/v1/inbox", token: family.childDevice.accessToken)
                .decode(InboxPage.self)
            let since = Dictionary(inbox.notices.map { ($0.reminderId.lowercased(), $0.since) }) { first, _ in first }
            #expect(since[homework.lowercased()] == .completed && since[piano.lowercased()] == .deleted, "\(since)")
        }
    }

    @Test(arguments: Engine.available)
    func aChildIsOfferedOnlyWhatTheRulesAllowOnWhatAParentAsked(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Pages.founded(client)
            let asked = try await Pages.childReminder(&family, client, server, title: "Homework", item: "Maths")
            let own = try #require(
                Pages.reminderID(
                    try await family.child.post(
                        client, "/family/reminders",
                        form: ["title": "Read", "dueAt": Pages.tomorrow(server), "assigneeId": family.childID])))

            let childOnAsked = try await family.child.get(client, "/family/reminders/\(asked)")
            #expect(!childOnAsked.text.contains(#"id="delete-reminder""#))
            #expect(
                childOnAsked.text.contains(#"href="/family/reminders/\#(asked)/edit#place-card">Set the place</a>"#))
            #expect(childOnAsked.text.contains(#"id="complete-button""#) && childOnAsked.text.contains("tick-form"))
            let parentOnAsked = try await family.parent.get(client, "/family/reminders/\(asked)")
            #expect(parentOnAsked.text.contains(#"id="delete-reminder""#))
            #expect(parentOnAsked.text.contains(#"href="/family/reminders/\#(asked)/edit">Edit</a>"#))
            let childOnOwn = try await family.child.get(client, "/family/reminders/\(own)")
            #expect(childOnOwn.text.contains(#"id="delete-reminder""#) && childOnOwn.text.contains(">Edit</a>"))
            let parentOnOwn = try await family.parent.get(client, "/family/reminders/\(own)")
            #expect(!parentOnOwn.text.contains(#"id="complete-button""#), "the parent neither made it nor does it")
            #expect(parentOnOwn.text.contains(#"id="delete-reminder""#))

            // The child's form for what a parent asked: everything but the place locked; a title
            // sent anyway is refused by the rules.
            let form = try await family.child.get(client, "/family/reminders/\(asked)/edit")
            #expect(
                form.text.contains(#"id="details-locked""#) && form.text.contains(#"id="reminder-details" disabled"#))
            let sneaked = try await family.child.post(
                client, "/family/reminders/\(asked)/edit",
                form: ["title": "No homework", "where": "place", "latitude": "52.52", "longitude": "13.405"])
            #expect(sneaked.status == .unprocessableContent)
            #expect(sneaked.text.contains("Only a parent can change what a parent asked"))
            // What the locked form sends: the place alone.
            let placed = try await family.child.post(
                client, "/family/reminders/\(asked)/edit",
                form: ["where": "place", "latitude": "52.52", "longitude": "13.405"])
            #expect(placed.status == .found, "\(placed.text.prefix(300))")
            let stored = try #require(
                try await Pages.pulled(client, family.parentDevice, FamilyEntities.reminder).first {
                    $0.id.lowercased == asked
                })
            #expect(stored.fields["title"] == .string("Homework") && stored.fields["latitude"] == .double(52.52))
            let confirm = try await family.child.get(client, "/family/reminders/\(asked)/delete")
            #expect(confirm.text.contains("Only the reminder&#39;s creator or a parent can delete it."))
            #expect(!confirm.text.contains(#"id="confirm-form""#), "not asked: refused")
            let refused = try await family.child.post(client, "/family/reminders/\(asked)/delete", form: [:])
            #expect(refused.status == .unprocessableContent, "the rules refuse what is not offered")
        }
    }
}
