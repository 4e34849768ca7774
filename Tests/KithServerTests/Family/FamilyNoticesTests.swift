import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Seed 003's notices, planned by the server when a reminder is written and delivered by the job
/// runner into each person's inbox (docs/family.md, "Notices"). The test clock moves; the runner
/// looks for due jobs every 20 ms.
@Suite("Family notices")
struct FamilyNoticesTests {
    static let configure: @Sendable (inout ServerConfig) -> Void = { $0.jobs.pollInterval = .milliseconds(20) }

    /// A reminder by the parent for the child, due `minutes` from the server's now.
    static func remind(
        _ client: any TestClientProtocol, _ server: TestServer, _ parent: FamilyPerson, _ family: FamilyDTO,
        for child: String,
        in minutes: Double, title: String = "Feed the cat"
    ) async throws -> UUID {
        var device = parent.device
        let id = UUID()
        var fields = FamilyRuleTable.reminder(
            title: title, due: server.clock.now.addingTimeInterval(minutes * 60), assignee: child,
            creator: parent.userID,
            now: server.clock.now)
        fields["title"] = .string(title)
        let pushed = try await SyncAPITests.push(
            client, device,
            [device.mutation(id, .upsert, fields, scope: family.scope, entity: FamilyEntities.reminder.name)])
        #expect(pushed.results.map(\.status) == [.applied], "\(pushed.results)")
        return id
    }

    static func inbox(_ client: any TestClientProtocol, _ person: FamilyPerson, query: String = "") async throws
        -> InboxPage
    {
        let response = try await client.call(.get, "/v1/inbox\(query)", token: person.token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(InboxPage.self)
    }

    static func kinds(_ client: any TestClientProtocol, _ person: FamilyPerson) async throws -> [NoticeKind] {
        try await inbox(client, person).notices.map(\.kind).reversed()
    }

    @Test(arguments: Engine.available)
    func theAssigneeIsToldThreeTwoAndOneMinuteBeforeAndWhenDue(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            _ = try await Self.remind(client, server, parent, family, for: child.userID, in: 10)
            try await server.app.jobsCaughtUp()
            #expect(try await Self.inbox(client, child).notices.isEmpty, "nothing before its time")

            server.clock.advance(by: 7 * 60)
            try await eventually { try await Self.kinds(client, child) == [.before3] }
            server.clock.advance(by: 60)
            try await eventually { try await Self.kinds(client, child) == [.before3, .before2] }
            server.clock.advance(by: 60)
            try await eventually { try await Self.kinds(client, child) == [.before3, .before2, .before1] }
            server.clock.advance(by: 60)
            try await eventually { try await Self.kinds(client, child).count == 4 }
            let page = try await Self.inbox(client, child)
            #expect(page.notices.map(\.kind) == [.due, .before1, .before2, .before3], "newest first")
            #expect(page.notices.first?.title == "Feed the cat")
            #expect(page.notices.first?.body.contains("Due now") == true)
            #expect(page.notices.last?.title == "In 3 minutes: Feed the cat")
            #expect(page.notices.allSatisfy { !$0.late && $0.readAt == nil })
            #expect(page.unread == 4)
            #expect(try await Self.inbox(client, parent).notices.isEmpty, "due notices are the assignee's")

            // Paging and reading.
            let first = try await Self.inbox(client, child, query: "?limit=3")
            #expect(first.notices.count == 3 && first.next != nil)
            let second = try await Self.inbox(client, child, query: "?limit=3&before=\(try #require(first.next))")
            #expect(second.notices.map(\.kind) == [.before3] && second.next == nil)
            let read = try await client.call(
                .post, "/v1/inbox/read", body: MarkNoticesReadRequest(ids: [page.notices[0].id]), token: child.token)
            #expect(try read.decode(InboxPage.self).unread == 3)
            #expect(try await Self.inbox(client, child, query: "?unread=true").notices.count == 3)
            _ = try await client.call(
                .post, "/v1/inbox/read", body: MarkNoticesReadRequest(all: true), token: child.token)
            #expect(try await Self.inbox(client, child).unread == 0)
            #expect(try await client.call(.get, "/v1/inbox?limit=0", token: child.token).status == .badRequest)
            let neither = try await client.call(.post, "/v1/inbox/read", json: "{}", token: child.token)
            #expect(neither.status == .unprocessableContent)
            let nul = try await client.call(.post, "/v1/inbox/read", json: #"{"ids":["a\u0000b"]}"#, token: child.token)
            #expect(nul.status == .unprocessableContent && nul.error?.field == "ids", "not a 500: \(nul.text)")
        }
    }

    @Test(arguments: Engine.available)
    func aCompletionCancelsTheRestAndTellsTheParentsThirtySecondsLater(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let id = try await Self.remind(client, server, parent, family, for: child.userID, in: 10)
            var device = child.device
            _ = device.clock.receive(
                HLC(wallMillis: server.clock.now.epochMillis, counter: 50, node: "z"), now: device.now)
            let done = try await SyncAPITests.push(
                client, device,
                [
                    device.mutation(
                        id, .upsert,
                        [
                            "status": .string("completed"), "completedBy": .string(child.userID),
                            "completedAt": .string(WireCoding.formatTimestamp(server.clock.now)),
                        ], scope: family.scope, entity: FamilyEntities.reminder.name)
                ])
            #expect(done.results.map(\.status) == [.applied])
            server.clock.advance(by: 29)
            try await server.app.jobsCaughtUp()
            #expect(try await Self.inbox(client, parent).notices.isEmpty, "not before 30 s")
            server.clock.advance(by: 1)
            try await eventually { try await Self.inbox(client, parent).notices.count == 1 }
            let told = try #require(try await Self.inbox(client, parent).notices.first)
            #expect(told.kind == .completion && told.title == "Irène completed Feed the cat")
            // Past the due time: nothing reaches the child, the reminder was done before.
            server.clock.advance(by: 15 * 60)
            try await server.app.jobsCaughtUp()
            #expect(try await Self.inbox(client, child).notices.isEmpty)
        }
    }

    @Test(arguments: Engine.available)
    func anEditMovesTheNoticesAndADeletionCancelsThem(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let moved = try await Self.remind(client, server, parent, family, for: child.userID, in: 5, title: "Moved")
            let deleted = try await Self.remind(
                client, server, parent, family, for: child.userID, in: 5, title: "Deleted")
            var device = parent.device
            _ = device.clock.receive(
                HLC(wallMillis: server.clock.now.epochMillis, counter: 50, node: "z"), now: device.now)
            let later = WireCoding.formatTimestamp(server.clock.now.addingTimeInterval(20 * 60))
            _ = try await SyncAPITests.push(
                client, device,
                [
                    device.mutation(
                        moved, .upsert, ["dueAt": .string(later)], scope: family.scope,
                        entity: FamilyEntities.reminder.name),
                    device.mutation(deleted, .delete, scope: family.scope, entity: FamilyEntities.reminder.name),
                ])
            server.clock.advance(by: 6 * 60)
            try await server.app.jobsCaughtUp()
            #expect(try await Self.inbox(client, child).notices.isEmpty, "the old due time passed without a word")
            server.clock.advance(by: 14 * 60)
            try await eventually { try await Self.inbox(client, child).notices.contains { $0.kind == .due } }
            let notices = try await Self.inbox(client, child).notices
            #expect(notices.allSatisfy { $0.title.hasSuffix("Moved") || $0.title == "Moved" })
            #expect(notices.filter { $0.kind == .due }.count == 1)
        }
    }

    @Test(arguments: Engine.available)
    func aNoticeMissedWhileTheServerWasDownComesLateAndBeforeDueOnesAreDropped(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            // The runner sees nothing until the clock jumps 5 minutes past the due time at once.
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            _ = try await Self.remind(client, server, parent, family, for: child.userID, in: 10)
            server.clock.advance(by: 15 * 60)
            try await eventually { try await Self.inbox(client, child).notices.count == 1 }
            try await server.app.jobsCaughtUp()
            let page = try await Self.inbox(client, child)
            #expect(page.notices.map(\.kind) == [.due], "before-due notices whose time passed are dropped")
            #expect(page.notices.first?.late == true)
        }
    }

    /// A mutation of `reminder`'s fields by `person`, stamped after everything before it.
    static func change(
        _ client: any TestClientProtocol, _ person: FamilyPerson, _ family: FamilyDTO, _ reminder: UUID,
        _ fields: [String: JSONTree], after counter: inout Int64
    ) async throws -> MutationResult {
        var device = person.device
        counter += 1
        _ = device.clock.receive(HLC(wallMillis: device.now, counter: Int(counter) * 10, node: "zz"), now: device.now)
        let pushed = try await SyncAPITests.push(
            client, device,
            [device.mutation(reminder, .upsert, fields, scope: family.scope, entity: FamilyEntities.reminder.name)])
        return try #require(pushed.results.first)
    }

    @Test(arguments: Engine.available)
    func theAssigneeSnoozesUpToTheFamilysLimitAndIsToldHowManyAreLeft(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let limit = try await client.call(
                .patch, "/v1/family", body: UpdateFamilyRequest(snoozeLimit: 2), token: parent.token)
            #expect(try limit.decode(FamilyDTO.self).snoozeLimit == 2)
            #expect(
                try await client.call(
                    .patch, "/v1/family", body: UpdateFamilyRequest(snoozeLimit: 11), token: parent.token
                ).status
                    == .unprocessableContent)
            let id = try await Self.remind(client, server, parent, family, for: child.userID, in: 5)
            var counter: Int64 = 0
            let snooze = { (count: Int64, minutes: Double) -> [String: JSONTree] in
                [
                    "snoozeCount": .int(count),
                    "snoozedUntil": .string(
                        WireCoding.formatTimestamp(server.clock.now.addingTimeInterval(minutes * 60))),
                ]
            }
            let early = try await Self.change(client, child, family, id, snooze(1, 5), after: &counter)
            #expect(early.code == "validation_failed", "not before it is due")
            server.clock.advance(by: 5 * 60)
            try await eventually { try await Self.inbox(client, child).notices.contains { $0.kind == .due } }
            let byParent = try await Self.change(client, parent, family, id, snooze(1, 5), after: &counter)
            #expect(byParent.code == "not_allowed", "only the assignee snoozes")
            #expect(try await Self.change(client, child, family, id, snooze(1, 5), after: &counter).status == .applied)
            server.clock.advance(by: 5 * 60)
            try await eventually { try await Self.inbox(client, child).notices.first?.kind == .snoozed }
            let again = try #require(try await Self.inbox(client, child).notices.first)
            #expect(again.body.hasPrefix("Snoozed 1 of 2 times; 1 left."), "\(again.body)")
            #expect(try await Self.change(client, child, family, id, snooze(2, 10), after: &counter).status == .applied)
            let third = try await Self.change(client, child, family, id, snooze(3, 10), after: &counter)
            #expect(
                third.code == "snooze_limit"
                    && third.message == "This reminder was snoozed 2 times, the family's limit.")
            server.clock.advance(by: 10 * 60)
            try await eventually {
                try await Self.inbox(client, child).notices.first?.body.hasPrefix("Snoozed 2 of 2 times; 0 left.")
                    == true
            }
        }
    }

    @Test(arguments: Engine.available)
    func aWeeklyReminderAcrossTheSpringChangeIsStillToldAtItsLocalTime(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            // Saturday 20 March 2027 in Paris; summer time starts early on Sunday the 28th.
            let paris = try #require(TimeZone(identifier: "Europe/Paris"))
            server.clock.advance(
                by: try #require(WireCoding.parseTimestamp("2027-03-20T12:00:00Z")).timeIntervalSince(server.clock.now))
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let sundays = try Recurrence.weekly(
                [.sunday], interval: 1, start: try #require(LocalDate("2027-03-21")),
                time: try #require(LocalTime("07:30")), timeZone: paris
            ).get()
            let first = try #require(sundays.next(after: server.clock.now))
            #expect(WireCoding.formatTimestamp(first) == "2027-03-21T06:30:00.000Z", "07:30 winter time (UTC+1)")
            let id = UUID()
            let fields = ReminderFields.new(
                title: "Bins out", dueAt: first, assignee: child.userID, creator: parent.userID,
                createdAt: server.clock.now,
                recurrence: sundays)
            var device = parent.device
            let made = try await SyncAPITests.push(
                client, device,
                [device.mutation(id, .upsert, fields, scope: family.scope, entity: FamilyEntities.reminder.name)])
            #expect(made.results.map(\.status) == [.applied], "\(made.results)")

            // The child does the first Sunday's early; the next is due after the change.
            let reminder = try #require(FamilyReminder(id: id, fields: fields, checklist: [], timeZone: paris))
            let done = try ReminderFields.completion(
                of: reminder, recurrence: sundays, by: child.userID, at: server.clock.now
            ).get()
            var counter: Int64 = 0
            #expect(try await Self.change(client, child, family, id, done.reminder, after: &counter).status == .applied)
            let next = try #require(done.nextDue)
            #expect(
                WireCoding.formatTimestamp(next) == "2027-03-28T05:30:00.000Z",
                "07:30 summer time (UTC+2): an hour earlier in UTC")
            let stored = try await SyncAPITests.pull(client, parent.device).changes.last { $0.id == id }
            #expect(stored?.fields["dueAt"] == .string("2027-03-28T05:30:00.000Z"))

            // A week on: nothing for the first Sunday (done), then 3, 2, 1 minutes before 07:30 and at 07:30.
            server.clock.advance(by: next.addingTimeInterval(-180).timeIntervalSince(server.clock.now))
            let childNow = try await child.signedInAgain(client, server)  // a week on, her token expired
            try await eventually { try await Self.kinds(client, childNow) == [.before3] }
            for expected in [
                [NoticeKind.before3, .before2], [.before3, .before2, .before1], [.before3, .before2, .before1, .due],
            ] {
                server.clock.advance(by: 60)
                try await eventually { try await Self.kinds(client, childNow) == expected }
            }
            let notices = try await Self.inbox(client, childNow).notices
            #expect(
                notices.allSatisfy { $0.occurrence.epochMillis == next.epochMillis && !$0.late },
                "all about the 28th, on time")
            #expect(
                notices.map { WireCoding.formatTimestamp($0.dueAt) } == [
                    "2027-03-28T05:30:00.000Z", "2027-03-28T05:29:00.000Z", "2027-03-28T05:28:00.000Z",
                    "2027-03-28T05:27:00.000Z",
                ])
            #expect(notices.first?.body == "Due now (05:30 UTC).", "no zone named: UTC, saying so")
            let inParis = try await Self.inbox(client, childNow, query: "?timeZone=Europe/Paris").notices
            #expect(inParis.first?.body == "Due now (07:30).", "07:30 for a reader in Paris")
            #expect(inParis.last?.body.hasPrefix("Due at 07:30.") == true, "\(inParis.last?.body ?? "")")
            let inNewYork = try await Self.inbox(client, childNow, query: "?timeZone=America/New_York").notices
            #expect(inNewYork.first?.body == "Due now (01:30).", "the same moment on a New York reader's clock")
            #expect(
                inNewYork.first?.rendered(in: paris).body == "Due now (07:30).", "a device writes it on its own clock")
            let badZone = try await client.call(.get, "/v1/inbox?timeZone=Mars/Olympus", token: childNow.token)
            #expect(badZone.status == .badRequest && badZone.error?.field == "timeZone")
        }
    }

    @Test(arguments: Engine.available)
    func anOccurrenceNotDoneIsMissedAndTheNextOneIsStillTold(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            // Saturday 5 December 2026, noon in Paris; the reminder is for Mondays and Wednesdays at 07:30.
            let paris = try #require(TimeZone(identifier: "Europe/Paris"))
            func at(_ text: String) throws -> Date { try #require(WireCoding.parseTimestamp(text)) }
            server.clock.advance(by: try at("2026-12-05T11:00:00Z").timeIntervalSince(server.clock.now))
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let days = try Recurrence.weekly(
                [.monday, .wednesday], interval: 1, start: try #require(LocalDate("2026-12-07")),
                time: try #require(LocalTime("07:30")), timeZone: paris
            ).get()
            let monday = try at("2026-12-07T06:30:00Z")
            #expect(days.next(after: server.clock.now) == monday)
            let id = UUID()
            var device = parent.device
            let fields = ReminderFields.new(
                title: "Bins out", dueAt: monday, assignee: child.userID, creator: parent.userID,
                createdAt: server.clock.now,
                recurrence: days)
            let made = try await SyncAPITests.push(
                client, device,
                [device.mutation(id, .upsert, fields, scope: family.scope, entity: FamilyEntities.reminder.name)])
            #expect(made.results.map(\.status) == [.applied], "\(made.results)")

            // Monday: told, and not done.
            server.clock.advance(by: try at("2026-12-07T06:27:00Z").timeIntervalSince(server.clock.now))
            let childOnMonday = try await child.signedInAgain(client, server)
            for minute in [27.0, 28, 29, 30] {
                server.clock.advance(
                    by: try at("2026-12-07T06:00:00Z").addingTimeInterval(minute * 60).timeIntervalSince(
                        server.clock.now))
                try await eventually { try await Self.inbox(client, childOnMonday).notices.count == Int(minute) - 26 }
            }
            // Wednesday, 3 minutes before: Monday's is missed, told to the child and the parent.
            server.clock.advance(by: try at("2026-12-09T06:27:00Z").timeIntervalSince(server.clock.now))
            let child2 = try await child.signedInAgain(client, server)
            let parent2 = try await parent.signedInAgain(client, server)
            try await eventually { try await Self.inbox(client, parent2).notices.map(\.kind) == [.missed] }
            let toParent = try #require(
                try await Self.inbox(client, parent2, query: "?timeZone=Europe/Paris").notices.first)
            #expect(toParent.title == "Irène missed Bins out", "\(toParent)")
            #expect(toParent.body == "It was due at 07:30 and was not done. Next: Wed 07:30.", "\(toParent.body)")
            #expect(!toParent.late && toParent.occurrence == monday)
            try await eventually { try await Self.kinds(client, child2).contains(.missed) }
            let missed = try #require(
                try await Self.inbox(client, child2, query: "?timeZone=Europe/Paris").notices.first {
                    $0.kind == .missed
                })
            #expect(missed.title == "Missed: Bins out")
            let stored = try await SyncAPITests.pull(client, parent2.device).changes.last { $0.id == id }
            #expect(stored?.fields["dueAt"] == .string("2026-12-09T06:30:00.000Z"), "moved on to Wednesday")

            // Wednesday's occurrence is told like any other: its "in 3 minutes", planned when the
            // reminder moved on, then one notice a minute, each arrived before the clock moves on (two
            // due at once may arrive in either order).
            try await eventually { try await Self.kinds(client, child2).count == 6 }
            for (minute, count) in [(28.0, 7), (29, 8), (30, 9)] {
                server.clock.advance(
                    by: try at("2026-12-09T06:00:00Z").addingTimeInterval(minute * 60).timeIntervalSince(
                        server.clock.now))
                try await eventually { try await Self.kinds(client, child2).count == count }
            }
            try await eventually {
                // Wednesday's "in 3 minutes" and Monday's "missed" come at the same moment, in either order.
                let kinds = try await Self.kinds(client, child2)
                return kinds.count == 9 && Set(kinds[4...5]) == [.missed, .before3]
                    && kinds.prefix(4) + kinds.suffix(3) == [
                        .before3, .before2, .before1, .due, .before2, .before1, .due,
                    ]
            }
            let wednesday = try #require(try await Self.inbox(client, child2).notices.first)
            let wednesdayDue = try at("2026-12-09T06:30:00Z")
            #expect(wednesday.kind == .due && wednesday.occurrence == wednesdayDue && !wednesday.late)

            // Done on Wednesday: no missed notice for it on Monday.
            let storedFields = try #require(stored?.fields)
            let reminder = try #require(FamilyReminder(id: id, fields: storedFields, checklist: [], timeZone: paris))
            let done = try ReminderFields.completion(
                of: reminder, recurrence: days, by: child.userID, at: server.clock.now
            ).get()
            var counter: Int64 = 0
            #expect(
                try await Self.change(client, child2, family, id, done.reminder, after: &counter).status == .applied)
            server.clock.advance(by: try at("2026-12-14T06:27:00Z").timeIntervalSince(server.clock.now))
            let parent3 = try await parent.signedInAgain(client, server)
            try await eventually {
                try await Self.inbox(client, parent3).notices.map(\.kind) == [.completion, .missed]
            }
            try await server.app.jobsCaughtUp()
            #expect(
                try await Self.inbox(client, parent3).notices.map(\.kind) == [.completion, .missed],
                "nothing missed on Wednesday")
        }
    }

    @Test(arguments: Engine.available)
    func theBeforeDueNoticesStopOnceThePlaceIsSetAndTheDueOneAsksForIt(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let id = try await Self.remind(client, server, parent, family, for: child.userID, in: 10)
            server.clock.advance(by: 7 * 60)
            try await eventually { try await Self.kinds(client, child) == [.before3] }
            #expect(try await Self.inbox(client, child).notices.first?.body.contains("Set where you are now") == true)
            var counter: Int64 = 0
            let home = try #require(GeoPoint(latitude: 48.8566, longitude: 2.3522))
            let set = ReminderFields.location(home, accuracy: 5, at: server.clock.now)
            #expect(try await Self.change(client, child, family, id, set, after: &counter).status == .applied)
            server.clock.advance(by: 60)
            try await server.app.jobsCaughtUp()
            server.clock.advance(by: 60)
            try await server.app.jobsCaughtUp()
            server.clock.advance(by: 60)
            try await eventually { try await Self.kinds(client, child) == [.before3, .due] }
            let due = try #require(try await Self.inbox(client, child).notices.first)
            #expect(due.body.hasSuffix("Set where you are now: this reminder uses a place."), "\(due.body)")
        }
    }

    @Test(arguments: Engine.available)
    func walkingAwayInStepsAlertsTheParentsAndTheChildTwentyMetresFromThePlace(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: Self.configure) { server, client in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let id = try await Self.remind(client, server, parent, family, for: child.userID, in: 60)
            var counter: Int64 = 0
            let home = try #require(GeoPoint(latitude: 48.8566, longitude: 2.3522))
            let set = ReminderFields.location(home, accuracy: 5, at: server.clock.now)
            #expect(try await Self.change(client, child, family, id, set, after: &counter).status == .applied)
            func stored() async throws -> FamilyReminder {
                try #require(
                    try await SyncAPITests.pull(client, child.device).changes.last { $0.id == id }.flatMap {
                        FamilyReminder(id: $0.id, fields: $0.fields, checklist: [], timeZone: .gmt)
                    })
            }
            // A parent's device is not where the child is: it sends no movement.
            let far = GeoPoint(latitude: home.latitude + 0.0005, longitude: home.longitude)!  // about 56 m
            let byParent = try #require(
                ReminderFields.reading(far, accuracy: 5, at: server.clock.now, for: try await stored()))
            #expect(
                try await Self.change(client, parent, family, id, byParent.fields, after: &counter).code
                    == "not_allowed")

            // Steps of 11, 17, 17 and 17 m due north.
            var outcomes: [MovementRule.Outcome] = []
            for metres in [11.0, 28, 45, 62] {
                let point = GeoPoint(
                    latitude: home.latitude + metres / GeoPoint.earthRadius * 180 / .pi, longitude: home.longitude)!
                guard
                    let reading = ReminderFields.reading(
                        point, accuracy: 5, at: server.clock.now, for: try await stored())
                else {
                    break  // tracking stopped
                }
                outcomes.append(reading.outcome)
                #expect(
                    try await Self.change(client, child, family, id, reading.fields, after: &counter).status == .applied
                )
                server.clock.advance(by: 10)
            }
            #expect(outcomes.count == 2, "the second step alerts and tracking stops: \(outcomes)")
            guard case .moved = outcomes.last else {
                Issue.record("28 m from the place is a movement: \(outcomes)")
                return
            }
            #expect(try await stored().location?.point == home, "the place stays where it was set")
            try await eventually { try await Self.inbox(client, parent).notices.map(\.kind) == [.movement] }
            try await eventually { try await Self.inbox(client, child).notices.map(\.kind) == [.movement] }
            #expect(try await Self.inbox(client, parent).notices.first?.title == "Irène moved away")
            let toChild = try #require(try await Self.inbox(client, child).notices.first)
            #expect(toChild.title == "You moved away" && toChild.body.contains("Feed the cat"), "\(toChild)")
        }
    }
}

/// Notices reach an open live socket the moment they are delivered.
@Suite("Family notices, live")
struct FamilyNoticesLiveTests {
    @Test(arguments: Engine.available)
    func aDeliveredNoticeIsSentOnTheLiveSocket(_ engine: Engine) async throws {
        try await TestServer.withLiveServer(engine, configure: FamilyNoticesTests.configure) { server, port, client in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let socket = try await LiveTestSocket.open(port: port, token: child.token)
            #expect(await socket.nextMessage() == .ready)
            let id = try await FamilyNoticesTests.remind(client, server, parent, family, for: child.userID, in: 2)
            server.clock.advance(by: 60)  // two minutes before is past: the one-minute notice comes now
            // The two-minute notice came as the reminder was made (no three-minute one: too late for it).
            var notices: [NoticeDTO] = []
            while notices.count < 2, let message = await socket.nextMessage() {
                if let notice = message.notice { notices.append(notice) }
            }
            #expect(notices.map(\.kind) == [.before2, .before1])
            let notice = notices.last
            #expect(notice?.kind == .before1 && notice?.reminderId == id.lowercased, "\(String(describing: notice))")
            #expect(notice?.title == "In 1 minute: Feed the cat")
            socket.close()
        }
    }
}
