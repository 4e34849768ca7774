import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The Family web pages (/family): founding and joining through the forms, and reminders written
/// as one more device of the signed-in member into the family's scope, so `FamilyRules` decide
/// exactly as on a push: a refusal is shown next to its field and nothing is stored.
@Suite("Family web pages")
struct FamilyPagesTests {
    typealias Browser = WebSessionTests.Browser

    /// A parent who founded "The Lovelaces" (Europe/Berlin) and a child who joined with a code.
    struct Family {
        var parent: Browser
        var child: Browser
        var parentDevice: AuthSessionResponse
        var childDevice: AuthSessionResponse
        var parentID: String { parentDevice.user.id.uuidString.lowercased() }
        var childID: String { childDevice.user.id.uuidString.lowercased() }
    }

    static func founded(_ client: any TestClientProtocol) async throws -> Family {
        var (parent, parentDevice) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
        let created = try await parent.post(
            client, "/family/create",
            form: ["name": "The Lovelaces", "timeZone": "Europe/Berlin", "displayName": "Ada"])
        #expect(created.status == .found)
        let code = try #require(
            Self.code(in: try await parent.post(client, "/family/codes", form: ["role": "child"]).text))
        var (child, childDevice) = try await NutritionPagesTests.signedUp(client, "byron@example.com")
        let joined = try await child.post(client, "/family/join", form: ["code": code, "displayName": "Byron"])
        #expect(joined.status == .found)
        return Family(parent: parent, child: child, parentDevice: parentDevice, childDevice: childDevice)
    }

    /// The code a members page shows once, large.
    static func code(in html: String) -> String? {
        guard let start = html.range(of: #"id="join-code">"#) else { return nil }
        return String(html[start.upperBound...].prefix(9))
    }

    /// The family's reminders and checklist items as a member's device pulls them.
    static func pulled(_ client: any TestClientProtocol, _ device: AuthSessionResponse, _ entity: EntityDeclaration)
        async throws
        -> [ChangeDTO]
    {
        try await OutreachPagesTests.pulled(client, token: device.accessToken).filter {
            $0.entity == entity.name && !$0.deleted
        }
    }

    static func reminderID(_ response: TestResponse) -> String? {
        response.headers[.location].flatMap { $0.hasPrefix("/family/reminders/") ? String($0.dropFirst(18)) : nil }
    }

    /// A reminder the parent makes for the child, due tomorrow, with one checklist line: its id.
    static func childReminder(
        _ family: inout Family, _ client: any TestClientProtocol, _ server: TestServer, title: String, item: String
    ) async throws -> String {
        let created = try await family.parent.post(
            client, "/family/reminders",
            form: [
                "title": title, "dueAt": tomorrow(server), "assigneeId": family.childID, "checklist.0.text": item,
            ])
        return try #require(reminderID(created))
    }

    static func tomorrow(_ server: TestServer) -> String {
        "\(LocalDate(server.clock.now, in: TimeZone(identifier: "Europe/Berlin")!).adding(days: 1))T18:00"
    }

    @Test(arguments: Engine.available)
    func aFamilyIsFoundedAndJoinedThroughThePages(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (parent, _) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
            let start = try await parent.get(client, "/family")
            #expect(start.status == .ok)
            #expect(start.text.contains(#"id="nav-family" href="/family""#), "the navigation links to /family")
            #expect(start.text.contains("Start a family") && start.text.contains("Join with a code"))

            let blank = try await parent.post(
                client, "/family/create", form: ["name": " ", "timeZone": "Europe/Berlin", "displayName": "Ada"])
            #expect(blank.status == .unprocessableContent)
            #expect(
                blank.text.contains(
                    #"<p id="create-name-error" class="field-error">A family&#39;s name can&#39;t be empty.</p>"#))
            let created = try await parent.post(
                client, "/family/create",
                form: ["name": "The Lovelaces", "timeZone": "Europe/Berlin", "displayName": "Ada"])
            #expect(created.status == .found && created.headers[.location] == "/family")
            let home = try await parent.get(client, "/family")
            #expect(home.text.contains("<h1>The Lovelaces</h1>"))
            #expect(home.text.contains("Europe/Berlin"))

            let members = try await parent.post(client, "/family/codes", form: ["role": "child"])
            #expect(members.status == .ok)
            let code = try #require(Self.code(in: members.text))
            #expect(JoinCode.normalized(code) == code)
            #expect(members.text.contains(#"id="code-expiry""#))
            let listed = try await parent.get(client, "/family/members")
            #expect(!listed.text.contains(code), "the code is shown once")
            #expect(listed.text.contains("Child · expires"), "its expiry is listed, with a Revoke button")

            var (child, _) = try await NutritionPagesTests.signedUp(client, "byron@example.com")
            let wrong = try await child.post(
                client, "/family/join", form: ["code": "AAAA-AAAA", "displayName": "Byron"])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"id="join-code-error""#) && wrong.text.contains("was used already or expired"))
            let joined = try await child.post(
                client, "/family/join", form: ["code": code.lowercased(), "displayName": "Byron"])
            #expect(joined.status == .found)
            let childHome = try await child.get(client, "/family")
            #expect(childHome.text.contains("<h1>The Lovelaces</h1>") && childHome.text.contains("Byron"))
            let again = try await child.post(client, "/family/join", form: ["code": code, "displayName": "Byron"])
            #expect(again.status == .conflict)
            #expect(again.text.contains("You are already in a family."))

            var (stranger, _) = try await NutritionPagesTests.signedUp(client, "eve@example.com")
            let used = try await stranger.post(client, "/family/join", form: ["code": code, "displayName": "Eve"])
            #expect(used.status == .unprocessableContent, "a code works once")
            for _ in 0..<4 {
                _ = try await stranger.post(client, "/family/join", form: ["code": "CCCC-CCCC", "displayName": "Eve"])
            }
            let throttled = try await stranger.post(client, "/family/join", form: ["code": code, "displayName": "Eve"])
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.text.contains("Too many wrong codes."))

            // The last parent can't leave while others remain: said on the page, nothing changes.
            let leaving = try await parent.post(client, "/family/leave", form: [:])
            #expect(leaving.status == .conflict)
            #expect(leaving.text.contains("A family always has a parent"))
            #expect(try await parent.get(client, "/family").text.contains("<h1>The Lovelaces</h1>"))
        }
    }

    @Test(arguments: Engine.available)
    func parentsManageTheFamilyAndEveryoneTheirOwnName(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var family = try await Self.founded(client)
            let childView = try await family.child.get(client, "/family/members")
            #expect(childView.status == .ok)
            #expect(!childView.text.contains(#"id="code-form""#) && !childView.text.contains(#"id="settings-form""#))
            #expect(!childView.text.contains("/role"), "a child changes no one's role")
            #expect(!childView.text.contains("/remove\""), "a child removes no one")
            #expect(
                !childView.text.contains(#"class="member-actions""#), "nothing offered, not even an empty row of actions")

            let renamed = try await family.parent.post(
                client, "/family/settings", form: ["name": "Byrons", "timeZone": "Asia/Tokyo"])
            #expect(renamed.status == .found && renamed.headers[.location] == "/family/members")
            let badZone = try await family.parent.post(
                client, "/family/settings", form: ["name": "Byrons", "timeZone": "Mars/Olympus"])
            #expect(badZone.status == .unprocessableContent)
            #expect(badZone.text.contains(#"id="settings-timeZone-error""#))
            let notParent = try await family.child.post(
                client, "/family/settings", form: ["name": "Mine", "timeZone": "UTC"])
            #expect(notParent.status == .forbidden)
            #expect(notParent.text.contains("Only a parent can do this."))
            let page = try await family.child.get(client, "/family")
            #expect(page.text.contains("<h1>Byrons</h1>") && page.text.contains("Asia/Tokyo"))

            let alone = try await family.parent.get(client, "/family/members")
            #expect(
                !alone.text.contains("/family/members/\(family.parentID)/role"),
                "the only parent is not offered to become a child")
            #expect(!alone.text.contains("/family/members/\(family.parentID)/remove"), "nor to remove themself")
            #expect(alone.text.contains("/family/members/\(family.childID)/remove"))
            #expect(alone.text.contains("/family/members/\(family.childID)/role"))
            // What is not offered is refused the same, by the same rules.
            let demoted = try await family.parent.post(
                client, "/family/members/\(family.parentID)/role", form: ["role": "child"])
            #expect(demoted.status != .found && demoted.text.contains("A family always has a parent"))
            #expect(
                try await family.parent.post(client, "/family/members/\(family.childID)/role", form: ["role": "parent"])
                    .status == .found)
            let twoParents = try await family.child.get(client, "/family/members")
            #expect(twoParents.text.contains(#"id="code-form""#), "the new parent makes codes")
            #expect(
                try await family.child.post(client, "/family/name", form: ["displayName": "Lord Byron"]).status
                    == .found)
            #expect(try await family.parent.get(client, "/family").text.contains("Lord Byron"))

            let code = try #require(
                Self.code(in: try await family.parent.post(client, "/family/codes", form: ["role": "child"]).text))
            let codes = try await family.parent.get(client, "/family/members")
            let revoke = try #require(codes.text.range(of: #"action="/family/codes/"#))
            let codeID = String(codes.text[revoke.upperBound...].prefix { $0 != "/" })
            #expect(try await family.parent.post(client, "/family/codes/\(codeID)/revoke", form: [:]).status == .found)
            var (late, _) = try await NutritionPagesTests.signedUp(client, "late@example.com")
            #expect(
                try await late.post(client, "/family/join", form: ["code": code, "displayName": "Late"]).status
                    == .unprocessableContent)

            let confirm = try await family.parent.get(client, "/family/members/\(family.childID)/remove")
            #expect(confirm.text.contains("Remove Lord Byron from Byrons?"))
            #expect(
                try await family.parent.post(client, "/family/members/\(family.childID)/remove", form: [:]).status
                    == .found)
            #expect(
                try await family.child.get(client, "/family").text.contains("Start a family"),
                "removed: no family any more")
            let leave = try await family.parent.get(client, "/family/leave")
            #expect(leave.text.contains("You are its last member"))
            #expect(try await family.parent.post(client, "/family/leave", form: [:]).status == .found)
            #expect(try await family.parent.get(client, "/family").text.contains("Start a family"))
        }
    }

    @Test(arguments: Engine.available)
    func aChildCantAssignSomeoneElseAndAParentAssignsTheChild(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Self.founded(client)
            let form = try await family.child.get(client, "/family/reminders/new")
            #expect(form.text.contains(#"<option value="\#(family.childID)" selected>Byron</option>"#))
            #expect(!form.text.contains(#"<option value="\#(family.parentID)""#), "a child is offered only themselves")

            let refused = try await family.child.post(
                client, "/family/reminders",
                form: [
                    "title": "Buy milk", "dueAt": Self.tomorrow(server), "assigneeId": family.parentID,
                    "checklist.0.text": "Oat",
                ])
            #expect(refused.status == .unprocessableContent)
            #expect(
                refused.text.contains(
                    #"<p id="reminder-assigneeId-error" class="field-error">A child can create reminders only for themselves.</p>"#
                ))
            #expect(refused.text.contains(#"value="Buy milk""#), "what was typed is kept")
            #expect(
                try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).isEmpty, "nothing stored")
            #expect(try await Self.pulled(client, family.parentDevice, FamilyEntities.checklistItem).isEmpty)

            let past = try await family.child.post(
                client, "/family/reminders",
                form: ["title": "Late", "dueAt": "2020-01-01T08:00", "assigneeId": family.childID])
            #expect(
                past.text.contains(
                    #"<p id="reminder-dueAt-error" class="field-error">The due time must be in the future.</p>"#))

            // The parent's repeating reminder for the child: the preview first (nothing written).
            let start = LocalDate(server.clock.now, in: TimeZone(identifier: "Europe/Berlin")!).adding(days: 1)
            var fields = [
                "title": "Swimming bag", "dueAt": "", "assigneeId": family.childID, "repeat.MO": "on",
                "repeat.WE": "on",
                "repeatInterval": "2", "repeatStart": start.description, "repeatTime": "07:30",
                "checklist.0.text": "Towel", "checklist.1.text": "Goggles", "checklist.2.text": " ",
            ]
            let preview = try await family.parent.post(
                client, "/family/reminders", form: fields.merging(["preview": "1"]) { $1 })
            #expect(preview.status == .ok)
            #expect(
                preview.text.components(separatedBy: "<li>").count - 1 == ReminderPages.previewCount, "the next 5 dates"
            )
            #expect(preview.text.contains(", 07:30</li>"))
            #expect(try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).isEmpty)
            let json = try await family.parent.get(
                client,
                "/family/reminders/occurrences?repeat.MO=on&repeatInterval=2&repeatStart=\(start)&repeatTime=07:30")
            #expect(json.text.contains(#""occurrences":["#) && json.text.contains("07:30"))
            let noDay = try await family.parent.get(
                client, "/family/reminders/occurrences?repeatInterval=60&repeatStart=\(start)&repeatTime=07:30")
            #expect(noDay.text.contains(#""occurrences":[]"#))
            let badInterval = try await family.parent.get(
                client,
                "/family/reminders/occurrences?repeat.MO=on&repeatInterval=60&repeatStart=\(start)&repeatTime=07:30")
            #expect(badInterval.text.contains("Repeat every 1 to 52 weeks."))

            fields["checklist.2.text"] = ""
            let created = try await family.parent.post(client, "/family/reminders", form: fields)
            #expect(created.status == .found)
            let id = try #require(Self.reminderID(created))
            let reminder = try #require(
                try await Self.pulled(client, family.childDevice, FamilyEntities.reminder).first)
            #expect(reminder.id.lowercased == id)
            #expect(reminder.fields["assigneeId"] == .string(family.childID))
            #expect(reminder.fields["creatorId"] == .string(family.parentID))
            #expect(reminder.fields["repeatDays"] == .string("MO,WE") && reminder.fields["repeatInterval"] == .int(2))
            let recurrence = try #require(
                try FamilyRules.recurrence(reminder.fields, timeZone: TimeZone(identifier: "Europe/Berlin")!).get())
            #expect(
                reminder.fields["dueAt"]
                    == .string(WireCoding.formatTimestamp(recurrence.next(after: server.clock.now)!)),
                "due at the first occurrence")
            let items = try await Self.pulled(client, family.childDevice, FamilyEntities.checklistItem)
            #expect(
                Set(items.compactMap { $0.fields["text"]?.stringValue }) == ["Towel", "Goggles"],
                "the blank row is left out")

            let page = try await family.child.get(client, "/family/reminders/\(id)")
            #expect(page.text.contains("Every 2 weeks on Mon, Wed at 07:30"))
            #expect(page.text.contains("0 of 2 done"))
            let list = try await family.child.get(client, "/family?assignee=me")
            #expect(list.text.contains("Swimming bag"))
            let others = try await family.child.get(client, "/family?assignee=others")
            #expect(!others.text.contains("Swimming bag"))
        }
    }

    @Test(arguments: Engine.available)
    func theAssigneeTicksAndCompletesAndOthersCant(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Self.founded(client)
            let id = try await Self.childReminder(&family, client, server, title: "Homework", item: "Maths")
            let item = try #require(
                try await Self.pulled(client, family.childDevice, FamilyEntities.checklistItem).first)

            let ticked = try await family.child.post(
                client, "/family/reminders/\(id)/items/\(item.id.lowercased)",
                form: ["done": "true", "back": "/family/reminders/\(id)#item-\(item.id.lowercased)"])
            #expect(
                ticked.status == .found
                    && ticked.headers[.location] == "/family/reminders/\(id)#item-\(item.id.lowercased)")
            #expect(
                try await Self.pulled(client, family.childDevice, FamilyEntities.checklistItem).first?.fields["done"]
                    == .bool(true))

            // A second child, neither creator nor assignee, can't complete it.
            let code = try #require(
                Self.code(in: try await family.parent.post(client, "/family/codes", form: ["role": "child"]).text))
            var (sister, _) = try await NutritionPagesTests.signedUp(client, "ada-jr@example.com")
            _ = try await sister.post(client, "/family/join", form: ["code": code, "displayName": "Annabella"])
            let page = try await sister.get(client, "/family/reminders/\(id)")
            #expect(!page.text.contains(#"id="complete-button""#), "the page offers nothing she may not do")
            let notHers = try await sister.post(client, "/family/reminders/\(id)/complete", form: [:])
            #expect(notHers.status == .unprocessableContent)
            #expect(notHers.text.contains("Only the creator or the assignee can complete this reminder."))

            server.clock.advance(by: 60)
            let done = try await family.child.post(
                client, "/family/reminders/\(id)/complete", form: ["back": "/family"])
            #expect(done.status == .found && done.headers[.location] == "/family")
            let completed = try #require(
                try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(completed.fields["status"] == .string("completed"))
            #expect(completed.fields["completedBy"] == .string(family.childID))
            let shown = try await family.parent.get(client, "/family?status=completed")
            #expect(shown.text.contains("Completed by Byron"))
            #expect(
                !(try await family.parent.get(client, "/family").text.contains("Homework")),
                "pending is the default filter")
            let readOnly = try await family.parent.post(
                client, "/family/reminders/\(id)/edit",
                form: ["title": "Changed", "dueAt": Self.tomorrow(server), "assigneeId": family.childID])
            #expect(readOnly.status == .unprocessableContent)
            #expect(readOnly.text.contains("A completed reminder can&#39;t be changed."))

            // A repeating reminder moves to its next occurrence instead.
            let start = LocalDate(server.clock.now, in: TimeZone(identifier: "Europe/Berlin")!).adding(days: 1)
            let repeating = try await family.parent.post(
                client, "/family/reminders",
                form: [
                    "title": "Bins", "assigneeId": family.childID, "repeat.TU": "on", "repeatInterval": "1",
                    "repeatStart": start.description, "repeatTime": "19:00", "checklist.0.text": "Paper",
                ])
            let binsID = try #require(Self.reminderID(repeating))
            let paper = try #require(
                try await Self.pulled(client, family.childDevice, FamilyEntities.checklistItem).first {
                    $0.fields["reminderId"] == .string(binsID)
                })
            _ = try await family.child.post(
                client, "/family/reminders/\(binsID)/items/\(paper.id.lowercased)", form: ["done": "true"])
            let paperTicked = try await Self.pulled(client, family.childDevice, FamilyEntities.checklistItem).first {
                $0.id == paper.id
            }
            #expect(paperTicked?.fields["done"] == .bool(true))
            let before = try #require(
                try await Self.pulled(client, family.childDevice, FamilyEntities.reminder).first {
                    $0.id.lowercased == binsID
                })
            // "Done" sent twice with its write key (a double tap, a retry) completes one occurrence.
            for _ in 0..<2 {
                let done = try await family.child.post(
                    client, "/family/reminders/\(binsID)/complete", form: ["_key": "done-bins-1"])
                #expect(done.status == .found)
            }
            let after = try #require(
                try await Self.pulled(client, family.childDevice, FamilyEntities.reminder).first {
                    $0.id.lowercased == binsID
                })
            #expect(after.fields["status"] == .string("pending"))
            let due = { (change: ChangeDTO) in change.fields["dueAt"]?.stringValue.flatMap(WireCoding.parseTimestamp) }
            let moved = try #require(due(after)).timeIntervalSince(try #require(due(before)))
            #expect(Int(moved.rounded()) == 7 * 86_400, "a week later, not two")
            let unticked = try await Self.pulled(client, family.childDevice, FamilyEntities.checklistItem).first {
                $0.id == paper.id
            }
            #expect(unticked?.fields["done"] == .bool(false), "the next occurrence starts with its checklist unticked")
            #expect(
                try await family.parent.get(client, "/family/reminders/\(binsID)").text.contains("Last done by Byron"))
        }
    }

    @Test(arguments: Engine.available)
    func editingChangesWhatChangedAndTheChecklistLines(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Self.founded(client)
            let created = try await family.parent.post(
                client, "/family/reminders",
                form: [
                    "title": "Packing", "dueAt": Self.tomorrow(server), "assigneeId": family.childID,
                    "checklist.0.text": "Socks", "checklist.1.text": "Shoes",
                ])
            let id = try #require(Self.reminderID(created))
            let items = try await Self.pulled(client, family.parentDevice, FamilyEntities.checklistItem)
            let socks = try #require(items.first { $0.fields["text"] == .string("Socks") })

            let form = try await family.parent.get(client, "/family/reminders/\(id)/edit")
            #expect(form.text.contains(#"value="Packing""#) && form.text.contains(#"value="\#(socks.id.lowercased)""#))
            // Shoes emptied (removed), Socks renamed, a new line, and a weekly repeat from tomorrow.
            let start = LocalDate(server.clock.now, in: TimeZone(identifier: "Europe/Berlin")!).adding(days: 1)
            let fields = [
                "title": "Packing for camp", "dueAt": Self.tomorrow(server), "assigneeId": family.childID,
                "checklist.0.id": socks.id.lowercased, "checklist.0.text": "Warm socks", "checklist.1.text": "Torch",
                "repeat.\(Weekday(start).code)": "on", "repeatInterval": "1", "repeatStart": start.description,
                "repeatTime": "09:15",
            ]
            let preview = try await family.parent.post(
                client, "/family/reminders/\(id)/edit", form: fields.merging(["preview": "1"]) { $1 })
            #expect(preview.status == .ok && preview.text.contains(", 09:15</li>"), "the preview works on edit too")
            let edited = try await family.parent.post(client, "/family/reminders/\(id)/edit", form: fields)
            #expect(edited.status == .found && edited.headers[.location] == "/family/reminders/\(id)")
            let reminder = try #require(
                try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(reminder.fields["title"] == .string("Packing for camp"))
            #expect(reminder.fields["repeatTime"] == .string("09:15"))
            let zone = TimeZone(identifier: "Europe/Berlin")!
            let recurrence = try #require(try FamilyRules.recurrence(reminder.fields, timeZone: zone).get())
            #expect(
                reminder.fields["dueAt"]
                    == .string(WireCoding.formatTimestamp(recurrence.next(after: server.clock.now)!)))
            let lines = try await Self.pulled(client, family.parentDevice, FamilyEntities.checklistItem)
                .sorted { ($0.fields["position"]?.intValue ?? 0) < ($1.fields["position"]?.intValue ?? 0) }
            #expect(lines.compactMap { $0.fields["text"]?.stringValue } == ["Warm socks", "Torch"])
            #expect(lines.first?.id == socks.id, "an edited line keeps its record")

            // The child may edit what is theirs, but not hand it to someone else.
            var refused = fields
            refused["assigneeId"] = family.parentID
            let handedOver = try await family.child.post(client, "/family/reminders/\(id)/edit", form: refused)
            #expect(handedOver.status == .unprocessableContent)
            #expect(handedOver.text.contains(#"id="reminder-assigneeId-error""#))
            let unchanged = try #require(
                try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(unchanged.fields["assigneeId"] == .string(family.childID))
        }
    }

    /// The `seen.…` fields a page's form sends back: what it showed.
    static func seenFields(in html: String) -> [String: String] {
        let pattern = /<input type="hidden" name="(seen\.[^"]+)" value="([^"]*)">/
        return Dictionary(html.matches(of: pattern).map { (String($0.output.1), String($0.output.2)) }) { first, _ in
            first
        }
    }

    /// Two tabs editing one reminder: the second, opened before the first saved, writes only what
    /// its person changed, so the first tab's new title stays.
    @Test(arguments: Engine.available)
    func twoTabsEditingOneReminderKeepBothChanges(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Self.founded(client)
            let id = try await Self.childReminder(&family, client, server, title: "Packing", item: "Socks")
            let page = try await family.parent.get(client, "/family/reminders/\(id)/edit")
            let seen = Self.seenFields(in: page.text)
            #expect(seen["seen.title"] == "Packing" && seen["seen.checklist.0.text"] == "Socks")
            let shown = Dictionary(seen.map { (String($0.key.dropFirst("seen.".count)), $0.value) }) { first, _ in first
            }

            var tab1 = shown.merging(seen) { $1 }
            tab1["title"] = "Packing for camp"
            #expect(try await family.parent.post(client, "/family/reminders/\(id)/edit", form: tab1).status == .found)
            var tab2 = shown.merging(seen) { $1 }
            tab2["checklist.1.text"] = "Torch"
            #expect(try await family.parent.post(client, "/family/reminders/\(id)/edit", form: tab2).status == .found)

            let reminder = try #require(
                try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(reminder.fields["title"] == .string("Packing for camp"), "tab 2 did not undo tab 1's title")
            let lines = try await Self.pulled(client, family.parentDevice, FamilyEntities.checklistItem)
            #expect(Set(lines.compactMap { $0.fields["text"]?.stringValue }) == ["Socks", "Torch"])
        }
    }

    @Test(arguments: Engine.available)
    func noOneOutsideTheFamilyGetsAnythingOfIt(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Self.founded(client)
            let created = try await family.parent.post(
                client, "/family/reminders",
                form: ["title": "Secret", "dueAt": Self.tomorrow(server), "assigneeId": family.parentID])
            let id = try #require(Self.reminderID(created))

            var (other, _) = try await NutritionPagesTests.signedUp(client, "eve@example.com")
            #expect(try await other.get(client, "/family/reminders/\(id)").status == .notFound, "without a family")
            _ = try await other.post(
                client, "/family/create", form: ["name": "Eves", "timeZone": "UTC", "displayName": "Eve"])
            for path in ["/family/reminders/\(id)", "/family/reminders/\(id)/edit", "/family/reminders/\(id)/delete"] {
                let page = try await other.get(client, path)
                #expect(page.status == .notFound, "\(path)")
                #expect(!page.text.contains("Secret"))
            }
            #expect(try await other.post(client, "/family/reminders/\(id)/complete", form: [:]).status == .notFound)
            #expect(try await other.post(client, "/family/reminders/\(id)/delete", form: [:]).status == .notFound)
            #expect(!(try await other.get(client, "/family").text.contains("Secret")))
            #expect(
                try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).count == 1, "still there")

            // The creator deletes after a confirmation.
            let confirm = try await family.parent.get(client, "/family/reminders/\(id)/delete")
            #expect(confirm.text.contains("Delete the reminder Secret?"))
            let deleted = try await family.parent.post(client, "/family/reminders/\(id)/delete", form: [:])
            #expect(deleted.status == .found)
            #expect(try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).isEmpty)
        }
    }

    @Test(arguments: Engine.available)
    func everyFormNeedsTheCSRFToken(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var family = try await Self.founded(client)
            var (other, _) = try await NutritionPagesTests.signedUp(client, "eve@example.com")
            let forgedCreate = try await other.post(
                client, "/family/create", form: ["name": "Forged", "timeZone": "UTC", "displayName": "Eve"], csrf: false
            )
            #expect(forgedCreate.status == .forbidden)
            #expect(try await other.get(client, "/family").text.contains("Start a family"), "no family was made")
            let forgedReminder = try await family.parent.post(
                client, "/family/reminders",
                form: ["title": "Forged", "dueAt": Self.tomorrow(server), "assigneeId": family.parentID],
                csrf: false)
            #expect(forgedReminder.status == .forbidden)
            let wrongToken = try await family.parent.post(
                client, "/family/codes", form: ["role": "parent", "_csrf": "not-the-token"], csrf: false)
            #expect(wrongToken.status == .forbidden)
            #expect(try await family.parent.post(client, "/family/leave", form: [:], csrf: false).status == .forbidden)
            #expect(try await Self.pulled(client, family.parentDevice, FamilyEntities.reminder).isEmpty)
            #expect(!(try await family.parent.get(client, "/family/members").text.contains("Parent · expires")))
        }
    }
}
