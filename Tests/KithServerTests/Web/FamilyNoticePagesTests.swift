import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Issue 17 on the Family pages: the notices the server delivered (/family/notices, the header's
/// unread count, marking read), snoozing a due reminder as its assignee up to the family's limit
/// (set by a parent), and a reminder's place. The test clock moves; the job runner looks for due
/// notices every 20 ms.
@Suite("Family notice pages")
struct FamilyNoticePagesTests {
    typealias Family = FamilyPagesTests.Family
    static let berlin = TimeZone(identifier: "Europe/Berlin")!

    /// The parent's reminder for the child, due about `minutes` from now (the form takes whole
    /// minutes on the family's clock): its id and due time.
    static func remind(
        _ family: inout Family, _ client: any TestClientProtocol, _ server: TestServer, _ title: String,
        inMinutes minutes: Double, extra: [String: String] = [:]
    ) async throws -> (id: String, due: Date) {
        let field = FamilyFormat.fieldValue(server.clock.now.addingTimeInterval(minutes * 60), in: berlin)
        let created = try await family.parent.post(
            client, "/family/reminders",
            form: ["title": title, "dueAt": field, "assigneeId": family.childID].merging(extra) { _, given in given })
        let id = try #require(FamilyPagesTests.reminderID(created), "\(created.status) \(created.text)")
        return (id, try #require(FamilyFormat.parseField(field, in: berlin)))
    }

    /// Moves the server's clock to `seconds` after `moment`.
    static func move(_ server: TestServer, to moment: Date, plus seconds: TimeInterval) {
        server.clock.advance(by: moment.addingTimeInterval(seconds).timeIntervalSince(server.clock.now))
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// The ids of the notices a notices page lists, top to bottom.
    static func noticeIDs(_ html: String) -> [String] {
        html.components(separatedBy: #"<li class="notice-row"#).dropFirst().compactMap { row in
            guard let start = row.range(of: #"id="notice-"#) else { return nil }
            return String(row[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test(arguments: Engine.available)
    func theNoticesPageListsWhatTheServerDeliveredAndMarksThemRead(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let (id, due) = try await Self.remind(&family, client, server, "Feed the cat", inMinutes: 10)
            let empty = try await family.child.get(client, "/family/notices")
            #expect(empty.status == .ok && empty.text.contains(#"id="no-notices""#))
            #expect(empty.text.contains(#"id="nav-unread" hidden"#), "no unread count yet")

            Self.move(server, to: due, plus: -170)
            try await eventually { try await family.child.get(client, "/family/notices").text.contains("In 3 minutes") }
            // The before-due notice invites setting the place, one tap to it on the reminder's form.
            let invited = try await family.child.get(client, "/family/notices")
            #expect(invited.text.contains(#"<a class="btn btn-secondary btn-small place-link" href="/family/reminders/\#(id)/edit#place-card">Set the place</a>"#))
            #expect(try await family.child.get(client, "/family/reminders/\(id)/edit").text.contains(#"id="place-card""#))
            // Five minutes after its time: the before-due notices whose time passed are dropped,
            // the due one comes late and says so.
            Self.move(server, to: due, plus: 300)
            try await eventually {
                Self.noticeIDs(try await family.child.get(client, "/family/notices").text).count == 2
            }
            let page = try await family.child.get(client, "/family/notices")
            let ids = Self.noticeIDs(page.text)
            #expect(Self.count(#"class="notice-row is-unread""#, in: page.text) == 2, "both unread")
            #expect(page.text.contains(#"<span class="nav-count-number">2</span>"#), "the header counts them")
            #expect(page.text.contains("· 2 unread") && page.text.contains(#"id="mark-all-read""#))
            let dueRow = try #require(page.text.range(of: #"<a href="/family/reminders/\#(id)">Feed the cat</a>"#))
            let beforeRow = try #require(page.text.range(of: "In 3 minutes: Feed the cat"))
            #expect(dueRow.lowerBound < beforeRow.lowerBound, "newest first")
            #expect(page.text.contains("Late: meant for"), "the late one says so")
            #expect(Self.count("Late: meant for", in: page.text) == 1)
            #expect(!page.text.contains("place-link"), "once it is due, the invitation is gone")
            let home = try await family.child.get(client, "/family")
            #expect(home.text.contains(#"id="notices-link" href="/family/notices">Notices <span class="nav-count">2</span>"#))
            let parentPage = try await family.parent.get(client, "/family/notices")
            #expect(Self.noticeIDs(parentPage.text).isEmpty, "due notices are the assignee's alone")

            // Marking read: one, then all; another person's id changes nothing.
            let stranger = try await family.parent.post(
                client, "/family/notices/read", form: ["id": ids[0], "back": "/family/notices"])
            #expect(stranger.status == .found)
            let one = try await family.child.post(
                client, "/family/notices/read", form: ["id": ids[1], "back": "/family/notices"])
            #expect(one.status == .found && one.headers[.location] == "/family/notices")
            let afterOne = try await family.child.get(client, "/family/notices")
            #expect(Self.count(#"class="notice-row is-unread""#, in: afterOne.text) == 1)
            #expect(afterOne.text.contains(#"<li class="notice-row is-unread" id="notice-\#(ids[0])""#))
            let all = try await family.child.post(
                client, "/family/notices/read", form: ["all": "1", "back": "/family/notices"])
            #expect(all.status == .found)
            let afterAll = try await family.child.get(client, "/family/notices")
            #expect(!afterAll.text.contains("is-unread") && !afterAll.text.contains(#"id="mark-all-read""#))
            #expect(afterAll.text.contains(#"id="nav-unread" hidden"#))
            let neither = try await family.child.post(client, "/family/notices/read", form: [:])
            #expect(neither.status == .unprocessableContent)
        }
    }

    @Test(arguments: Engine.available)
    func olderNoticesArePagedWithBefore(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            var due = Date()
            for number in 1...11 {
                due = try await Self.remind(&family, client, server, "Chore \(number)", inMinutes: 10).due
            }
            Self.move(server, to: due, plus: -170)
            // Every 3-minute notice first: past the due time, an undelivered one would be dropped.
            try await eventually {
                Self.count(#"<span class="nav-count-number">11</span>"#, in: try await family.child.get(client, "/family").text)
                    == 1
            }
            Self.move(server, to: due, plus: 10)
            try await eventually {
                Self.count(#"<span class="nav-count-number">22</span>"#, in: try await family.child.get(client, "/family").text)
                    == 1
            }
            let first = try await family.child.get(client, "/family/notices")
            #expect(Self.noticeIDs(first.text).count == NoticeInbox.pageSize)
            let link = try #require(
                first.text.components(separatedBy: #"<a href=""#).last { $0.contains(#"id="older-notices""#) }?
                    .prefix { $0 != "\"" })
            #expect(link.hasPrefix("/family/notices?before="))
            let second = try await family.child.get(client, String(link))
            #expect(Self.noticeIDs(second.text).count == 2)
            #expect(Set(Self.noticeIDs(second.text)).isDisjoint(with: Self.noticeIDs(first.text)))
            #expect(!second.text.contains(#"id="older-notices""#) && second.text.contains(#"id="newest-notices""#))
        }
    }

    @Test(arguments: Engine.available)
    func onlyTheAssigneeSnoozesOnceDueUpToTheFamilysLimit(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let (id, due) = try await Self.remind(&family, client, server, "Brush teeth", inMinutes: 5)
            let page = "/family/reminders/\(id)"
            #expect(!(try await family.child.get(client, page).text.contains(#"id="snooze""#)), "not due yet")
            let early = try await family.child.post(client, "\(page)/snooze", form: ["minutes": "10", "back": page])
            #expect(early.status == .unprocessableContent && early.text.contains("A reminder is snoozed once it is due."))

            Self.move(server, to: due, plus: 10)
            let parent = try await family.parent.post(client, "\(page)/snooze", form: ["minutes": "10", "back": page])
            #expect(parent.status == .unprocessableContent)
            #expect(parent.text.contains("Only the person the reminder is for can snooze it."))
            #expect(!parent.text.contains(#"id="snooze-button""#), "the parent is offered no snooze")
            let ready = try await family.child.get(client, page)
            #expect(ready.text.contains(#"<strong id="snoozes-left">3 snoozes left</strong>"#), "nothing changed")
            #expect(ready.text.contains(#"<option value="10" selected>10 minutes</option>"#))

            // From the due notice, as from the page.
            try await eventually {
                try await family.child.get(client, "/family/notices").text.contains(#"action="\#(page)/snooze""#)
            }
            #expect(!(try await family.parent.get(client, "/family/notices").text.contains("/snooze")))
            let snoozed = try await family.child.post(
                client, "\(page)/snooze", form: ["minutes": "15", "back": "/family/notices"])
            #expect(snoozed.status == .found && snoozed.headers[.location] == "/family/notices")
            let after = try await family.child.get(client, page)
            #expect(after.text.contains("2 snoozes left") && after.text.contains(#"id="snoozed-until">Snoozed until"#))

            // A parent lowers the family's limit to 2; a child may not change it.
            let members = try await family.parent.get(client, "/family/members")
            #expect(members.text.contains(#"<option value="3" selected>3</option>"#))
            let refused = try await family.child.post(
                client, "/family/settings", form: ["name": "The Lovelaces", "timeZone": "Europe/Berlin", "snoozeLimit": "9"])
            #expect(refused.status != .found)
            let wrong = try await family.parent.post(
                client, "/family/settings", form: ["name": "The Lovelaces", "timeZone": "Europe/Berlin", "snoozeLimit": "11"])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"id="settings-snoozeLimit-error" class="field-error">A reminder may be snoozed 0 to 10 times."#))
            let lowered = try await family.parent.post(
                client, "/family/settings", form: ["name": "The Lovelaces", "timeZone": "Europe/Berlin", "snoozeLimit": "2"])
            #expect(lowered.status == .found)
            #expect(try await family.parent.get(client, "/family/members").text.contains(#"<option value="2" selected>2</option>"#))
            #expect(try await family.child.get(client, page).text.contains("1 snooze left"))

            let second = try await family.child.post(client, "\(page)/snooze", form: ["minutes": "5", "back": page])
            #expect(second.status == .found)
            let spent = try await family.child.get(client, page)
            #expect(spent.text.contains("0 snoozes left") && !spent.text.contains(#"id="snooze-button""#))
            let third = try await family.child.post(client, "\(page)/snooze", form: ["minutes": "5", "back": page])
            #expect(third.status == .unprocessableContent)
            #expect(third.text.contains("This reminder was snoozed 2 times, the family&#39;s limit."))
            let nonsense = try await family.child.post(client, "\(page)/snooze", form: ["minutes": "soon", "back": page])
            #expect(nonsense.status == .unprocessableContent)
        }
    }

    @Test(arguments: Engine.available)
    func aPlaceIsSavedShownAndRemoved(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let due = FamilyPagesTests.tomorrow(server)
            for (typed, field, message) in [
                (["latitude": "91", "longitude": "13.4"], "latitude", "Latitude is a number from -90 to 90"),
                (["latitude": "52.5"], "longitude", "Longitude is a number from -180 to 180"),
                (["latitude": "52.5", "longitude": "east"], "longitude", "Longitude is a number"),
                (["latitude": "52.5", "longitude": "13.4", "locationAccuracy": "-1"], "locationAccuracy", "Accuracy is in metres"),
            ] {
                let refused = try await family.parent.post(
                    client, "/family/reminders",
                    form: ["title": "Swim", "dueAt": due, "assigneeId": family.childID].merging(typed) { _, new in new })
                #expect(refused.status == .unprocessableContent)
                #expect(refused.text.contains(#"id="reminder-\#(field)-error" class="field-error">\#(message)"#), "\(typed)")
            }
            #expect(try await FamilyPagesTests.pulled(client, family.parentDevice, FamilyEntities.reminder).isEmpty)

            let created = try await family.parent.post(
                client, "/family/reminders",
                form: [
                    "title": "Swim", "dueAt": due, "assigneeId": family.childID, "latitude": "52.520008",
                    "longitude": "13,404954", "locationAccuracy": "12",
                ])
            let id = try #require(FamilyPagesTests.reminderID(created))
            let stored = try #require(
                try await FamilyPagesTests.pulled(client, family.childDevice, FamilyEntities.reminder).first)
            #expect(stored.fields["latitude"]?.doubleValue == 52.520008)
            #expect(stored.fields["longitude"]?.doubleValue == 13.404954)
            #expect(stored.fields["locationAccuracy"]?.doubleValue == 12)
            let shown = try await family.child.get(client, "/family/reminders/\(id)")
            #expect(shown.text.contains(#"id="place-coordinates">52.520008, 13.404954 · within 12 m</span>"#))
            #expect(
                shown.text.contains(
                    "https://www.openstreetmap.org/?mlat=52.520008&amp;mlon=13.404954#map=18/52.520008/13.404954"))
            #expect(shown.text.contains(#"<circle cx="120" cy="60" r="24" class="map-accuracy"/>"#), "12 m to scale")
            #expect(!shown.text.contains(#"id="place-moved""#))
            let edit = try await family.parent.get(client, "/family/reminders/\(id)/edit")
            #expect(edit.text.contains(#"name="latitude" inputmode="decimal" autocomplete="off" placeholder="52.520008" value="52.520008""#))

            // The child's phone reports that they moved away.
            var phone = SyncAPITests.device(family.childDevice, node: "phone", server: server)
            _ = phone.clock.receive(HLC(wallMillis: server.clock.now.epochMillis, counter: 90, node: "z"), now: phone.now)
            let moved = try await SyncAPITests.push(
                client, phone,
                [
                    phone.mutation(
                        try #require(UUID(uuidString: id)), .upsert,
                        [
                            "tracking": .bool(false), "movedAt": .string(WireCoding.formatTimestamp(server.clock.now)),
                            "readingLatitude": .double(52.5205), "readingLongitude": .double(13.404954),  // 55 m north
                        ],
                        scope: stored.scope, entity: FamilyEntities.reminder.name)
                ])
            #expect(moved.results.map(\.status) == [.applied], "\(moved.results)")
            let away = try await family.parent.get(client, "/family/reminders/\(id)")
            #expect(away.text.contains(#"id="place-moved">Moved away at "#))

            // Emptied, the place goes.
            let cleared = try await family.parent.post(
                client, "/family/reminders/\(id)/edit",
                form: ["title": "Swim", "dueAt": due, "assigneeId": family.childID, "latitude": "", "longitude": ""])
            #expect(cleared.status == .found)
            #expect(!(try await family.parent.get(client, "/family/reminders/\(id)").text.contains(#"id="reminder-place""#)))
            let after = try #require(
                try await FamilyPagesTests.pulled(client, family.childDevice, FamilyEntities.reminder).first)
            #expect((after.fields["latitude"] ?? .null) == .null)

            var (other, _) = try await NutritionPagesTests.signedUp(client, "eve@example.com")
            #expect(try await other.get(client, "/family/reminders/\(id)").status == .notFound)
        }
    }

    @Test(arguments: Engine.available)
    func markingReadAndSnoozingNeedTheCSRFToken(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let (id, _) = try await Self.remind(&family, client, server, "Brush teeth", inMinutes: 5)
            let read = try await family.child.post(client, "/family/notices/read", form: ["all": "1"], csrf: false)
            #expect(read.status == .forbidden)
            let snooze = try await family.child.post(
                client, "/family/reminders/\(id)/snooze", form: ["minutes": "5"], csrf: false)
            #expect(snooze.status == .forbidden)
            let limit = try await family.parent.post(
                client, "/family/settings",
                form: ["name": "The Lovelaces", "timeZone": "Europe/Berlin", "snoozeLimit": "0"], csrf: false)
            #expect(limit.status == .forbidden)
            #expect(try await family.parent.get(client, "/family/members").text.contains(#"<option value="3" selected>"#))
        }
    }
}
