import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Every row of `FamilyRuleTable` through the web pages (/family), on every engine: a member meets
/// the outcome a push meets, shown on the page (422 with the rule's message), and a refusal changes
/// nothing. Someone outside the family can't even name its reminders (404), and whatever they post
/// changes nothing of it.
@Suite("Family rules on the web")
struct FamilyWebRulesTests {
    typealias Browser = WebSessionTests.Browser
    typealias Actor = FamilyRuleTable.Actor
    static let paris = TimeZone(identifier: "Europe/Paris")!

    /// What the page says for a refusal whose message does not vary.
    static let messages = [
        "children_assign_themselves": "A child can create reminders only for themselves.",
        "due_in_past": "The due time must be in the future.",
        "completed": "A completed reminder can&#39;t be changed.",
        "not_allowed": "Only ",
    ]

    struct Cast {
        var browsers: [Actor: Browser] = [:]
        var devices: [Actor: AuthSessionResponse] = [:]
        func id(_ actor: Actor) -> String { devices[actor]!.user.id.uuidString.lowercased() }

        static func make(_ client: any TestClientProtocol) async throws -> Cast {
            var cast = Cast()
            for actor in Actor.allCases {
                let (browser, device) = try await NutritionPagesTests.signedUp(
                    client, "\(actor.rawValue.lowercased())@example.com")
                cast.browsers[actor] = browser
                cast.devices[actor] = device
            }
            _ = try await cast.post(
                .creator, client, "/family/create",
                ["name": "Curie", "timeZone": "Europe/Paris", "displayName": "Marie"])
            for (actor, role) in [(Actor.assignee, "child"), (.parent, "parent"), (.child, "child")] {
                let members = try await cast.post(.creator, client, "/family/codes", ["role": role])
                let code = try #require(FamilyPagesTests.code(in: members.text))
                let joined = try await cast.post(
                    actor, client, "/family/join", ["code": code, "displayName": actor.rawValue])
                #expect(joined.status == .found, "\(actor) joins: \(joined.text)")
            }
            _ = try await cast.post(
                .otherFamily, client, "/family/create", ["name": "Dupont", "timeZone": "Europe/Paris"])
            return cast
        }

        mutating func post(_ actor: Actor, _ client: any TestClientProtocol, _ path: String, _ form: [String: String])
            async throws -> TestResponse
        {
            try await browsers[actor]!.post(client, path, form: form)
        }
    }

    /// A due time as the form's `datetime-local` takes it, on the family's clock.
    static func local(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = paris
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }

    @Test(arguments: Engine.available)
    func everyRuleForEveryoneThroughTheWeb(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var cast = try await Cast.make(client)
            let tomorrow = Self.local(server.clock.now.addingTimeInterval(86_400))
            let creatorToken = cast.devices[.creator]!.accessToken
            for (action, actor) in FamilyRuleTable.rows {
                // A fresh reminder from the creator for the assignee, with one checklist item.
                let made = try await cast.post(
                    .creator, client, "/family/reminders",
                    [
                        "title": "Practise piano", "dueAt": tomorrow, "assigneeId": cast.id(.assignee),
                        "checklist.0.text": "Scales",
                    ])
                let reminder = try #require(FamilyPagesTests.reminderID(made), "\(made.status) \(made.text)")
                let records = try await Self.familyRecords(client, creatorToken)
                let item = try #require(records.first { $0.value["reminderId"] == .string(reminder) }?.key.lowercased)
                if action.startsCompleted {
                    // Its item not ticked: completed anyway, as after the question.
                    let done = try await cast.post(
                        .assignee, client, "/family/reminders/\(reminder)/complete", ["anyway": "1"])
                    #expect(done.status == .found)
                }
                let before = try await Self.familyRecords(client, creatorToken)

                let edit = [
                    "title": "Practise violin", "dueAt": tomorrow, "assigneeId": cast.id(.assignee),
                    "checklist.0.id": item, "checklist.0.text": "Scales",
                ]
                let response: TestResponse
                switch action {
                case .createForAssignee, .createForSelf, .createInThePast, .createWithoutTitle,
                    .createRepeatingTooRarely:
                    var form = [
                        "title": action == .createWithoutTitle ? "" : "New",
                        "dueAt": action == .createInThePast ? "2020-01-01T08:00" : tomorrow,
                        "assigneeId": action == .createForAssignee ? cast.id(.assignee) : cast.id(actor),
                    ]
                    if action == .createRepeatingTooRarely {
                        form.merge([
                            "repeat.MO": "on", "repeatInterval": "53", "repeatStart": String(tomorrow.prefix(10)),
                            "repeatTime": "07:30",
                        ]) { $1 }
                    }
                    response = try await cast.post(actor, client, "/family/reminders", form)
                case .editTitle, .editCompleted:
                    response = try await cast.post(actor, client, "/family/reminders/\(reminder)/edit", edit)
                case .reschedule:
                    let later = Self.local(server.clock.now.addingTimeInterval(86_400 + 3600))
                    response = try await cast.post(
                        actor, client, "/family/reminders/\(reminder)/edit",
                        edit.merging(["title": "Practise piano", "dueAt": later]) { $1 })
                case .rewordItem:
                    response = try await cast.post(
                        actor, client, "/family/reminders/\(reminder)/edit",
                        edit.merging(["title": "Practise piano", "checklist.0.text": "Arpeggios"]) { $1 })
                case .addItem:
                    response = try await cast.post(
                        actor, client, "/family/reminders/\(reminder)/edit",
                        edit.merging(["title": "Practise piano", "checklist.1.text": "Arpeggios"]) { $1 })
                case .deleteItem:
                    response = try await cast.post(
                        actor, client, "/family/reminders/\(reminder)/edit",
                        edit.merging(["title": "Practise piano", "checklist.0.text": ""]) { $1 })
                case .completeWithoutCompletedBy:
                    // The pages always complete with every field (ReminderFields.completion): only a push can leave one out.
                    continue
                case .tickItem:
                    response = try await cast.post(
                        actor, client, "/family/reminders/\(reminder)/items/\(item)", ["done": "true"])
                case .complete:
                    response = try await cast.post(
                        actor, client, "/family/reminders/\(reminder)/complete", ["anyway": "1"])
                case .delete:
                    response = try await cast.post(actor, client, "/family/reminders/\(reminder)/delete", [:])
                case .undoCompletion:
                    response = try await cast.post(actor, client, "/family/reminders/\(reminder)/undo", [:])
                }
                // Compared as one Bool, so a failure names the row without printing every record.
                let changed = try await Self.familyRecords(client, creatorToken) != before
                let row = "\(action) by \(actor)"
                if actor == .otherFamily || actor == .noFamily {
                    #expect(!changed, "\(row) changed nothing of the family")
                    if !action.rawValue.hasPrefix("create") {
                        #expect(response.status == .notFound, "\(row): \(response.status)")
                    }
                    continue
                }
                let expected = FamilyRuleTable.expected(action, actor)
                if let expected {
                    #expect(response.status == .unprocessableContent, "\(row): \(response.status)")
                    #expect(!changed, "\(row) changed nothing")
                    if let message = Self.messages[expected] {
                        #expect(response.text.contains(message), "\(row) says why (\(expected))")
                    }
                } else {
                    #expect(response.status == .found, "\(row): \(response.status) \(response.text.prefix(300))")
                    #expect(changed, "\(row) was stored")
                }
            }
        }
    }

    /// The family's live records by id (fields only), as the creator's device pulls them.
    static func familyRecords(_ client: any TestClientProtocol, _ token: String) async throws -> [UUID: [String:
        JSONTree]]
    {
        var records: [UUID: [String: JSONTree]] = [:]
        for change in try await OutreachPagesTests.pulled(client, token: token) where change.scope.hasPrefix("family:")
        {
            records[change.id] = change.deleted ? nil : change.fields
        }
        return records
    }
}
