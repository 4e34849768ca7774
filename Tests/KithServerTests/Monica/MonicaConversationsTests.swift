import Foundation
import HTTPTypes
import KithCore
import KithTestSupport
import SQLKit
import Testing

@testable import KithServer

/// What Monica's conversation and message API tests assert, the rules of its services (a contact
/// field type of the account's own, a message of the conversation in its path), and isolation.
@Suite("Monica API: conversations and messages")
struct MonicaConversationsTests {
    static let fields = [
        "id", "uuid", "object", "happened_at", "messages", "contact_field_type.id", "contact_field_type.object",
        "url", "account.id", "contact.id", "created_at", "updated_at",
    ]
    static let messageFields = [
        "id", "uuid", "object", "content", "written_at", "written_by_me", "account.id", "contact.id",
        "conversation.id", "created_at", "updated_at",
    ]

    static func paths(_ prefix: String) -> [String] { fields.map { prefix + $0 } }

    /// A contact field type of `user`'s own, as Monica's tests make one.
    static func fieldType(_ user: MonicaUser, _ name: String = "Signal") async throws -> Int64 {
        let made = try await user.post("/api/contactfieldtypes", ["name": .string(name)])
        #expect(made.status == .created, "\(made.text)")
        return try #require(made.dataID)
    }

    static func conversation(_ user: MonicaUser, contact: Int64, type: Int64, on day: String = "2017-12-01")
        async throws -> Int64
    {
        let made = try await user.post(
            "/api/conversations",
            ["contact_id": .int(contact), "contact_field_type_id": .int(type), "happened_at": .string(day)])
        #expect(made.status == .created, "\(made.text)")
        return try #require(made.dataID)
    }

    static let message: JSONTree = ["written_at": "1998-02-02", "written_by_me": true, "content": "lorem ipsum"]

    static func contents(_ answer: MonicaAnswer) -> [String] {
        answer.data?["messages"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
    }

    static func messageCount(_ server: TestServer, conversation: Int64) async throws -> Int {
        try await server.app.database.run { sql in
            try await sql.raw("SELECT COUNT(*) AS n FROM monica_messages WHERE conversation_id = \(bind: conversation)")
                .first(decodingColumn: "n", as: Int.self)
        } ?? 0
    }

    @Test(arguments: Engine.available)
    func conversationsAreListedShownMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let signal = try await Self.fieldType(me)
            let created = try await me.post(
                "/api/conversations",
                ["contact_id": .int(john), "happened_at": "1989-02-02", "contact_field_type_id": .int(signal)])
            #expect(created.status == .created)
            expectStructure(created.json, Self.paths("data."))
            expectFragment(
                created,
                [
                    ("object", "conversation"), ("happened_at", "1989-02-02T00:00:00Z"), ("messages", []),
                    ("object", "contactfieldtype"), ("name", "Signal"),
                ])
            #expect(created.data?["contact_field_type"]?["id"] == .int(signal))
            #expect(created.data?["contact"]?["id"] == .int(john))
            let conversation = try #require(created.dataID)
            for _ in 0..<9 { _ = try await Self.conversation(me, contact: jane, type: signal) }

            let all = try await me.get("/api/conversations")
            #expect(all.status == .ok)
            #expect(ids(all).count == 10)
            expectFragment(all, [("total", 10), ("current_page", 1)])
            expectStructure(all.json, Self.paths("data.*."))
            expectFragment(
                try await me.get("/api/conversations?limit=1"),
                [("total", 10), ("current_page", 1), ("per_page", 1), ("last_page", 10)])
            expectFragment(
                try await me.get("/api/conversations?limit=2"),
                [("total", 10), ("current_page", 1), ("per_page", 2), ("last_page", 5)])

            let shown = try await me.get("/api/conversations/\(conversation)")
            #expect(shown.status == .ok)
            expectStructure(shown.json, Self.paths("data."))
            let johns = try await me.get("/api/contacts/\(john)/conversations")
            #expect(johns.status == .ok)
            expectStructure(johns.json, Self.paths("data.*."))
            #expect(ids(johns) == [conversation])
            expectNotFound(try await me.get("/api/conversations/0"))
            expectNotFound(try await me.get("/api/contacts/0/conversations"))

            let email = try #require(
                try await me.get("/api/contactfieldtypes").data?.arrayValue?.first { $0["name"] == "Email" }?["id"]?
                    .intValue)
            let updated = try await me.put(
                "/api/conversations/\(conversation)",
                ["happened_at": "1989-02-03 10:30", "contact_field_type_id": .int(email), "contact_id": .int(jane)])
            #expect(updated.status == .ok)
            expectStructure(updated.json, Self.paths("data."))
            #expect(updated.data?["happened_at"] == "1989-02-03T10:30:00Z")
            #expect(updated.data?["contact_field_type"]?["name"] == "Email")
            #expect(updated.data?["contact"]?["id"] == .int(john), "a conversation stays with its contact")

            let deleted = try await me.delete("/api/conversations/\(conversation)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .int(conversation)])
            expectNotFound(try await me.get("/api/conversations/\(conversation)"))
            #expect(try await me.get("/api/conversations").json["meta"]?["total"] == 9)
            #expect(ids(try await me.get("/api/contacts/\(john)/conversations")).isEmpty)
        }
    }

    /// Monica's rules: a day, a contact and a contact field type, each the account's; its update
    /// looks the type up among the account's only (no `exists` rule), so any other type is 404.
    @Test(arguments: Engine.available)
    func aConversationNeedsADayAContactAndOneOfTheAccountsTypes(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let john = try await me.contact("John")
            let signal = try await Self.fieldType(me)
            func body(contact: Int64? = nil, type: Int64? = nil, day: String = "2018-01-01") -> JSONTree {
                [
                    "contact_id": .int(contact ?? john), "contact_field_type_id": .int(type ?? signal),
                    "happened_at": .string(day),
                ]
            }
            expectDataError(
                try await me.post("/api/conversations", [:]),
                [
                    "The happened at field is required.", "The contact id field is required.",
                    "The contact field type id field is required.",
                ])
            expectDataError(
                try await me.post("/api/conversations", body(day: "2018-02-30")),
                ["The happened at is not a valid date."])
            expectDataError(
                try await me.post("/api/conversations", body(contact: 999_999)),
                ["The selected contact id is invalid."])
            expectDataError(
                try await me.post("/api/conversations", body(type: 999_999)),
                ["The selected contact field type id is invalid."])
            let theirs = try await other.contact("Other")
            let theirType = try await Self.fieldType(other, "Theirs")
            expectNotFound(try await me.post("/api/conversations", body(contact: theirs)))
            expectNotFound(try await me.post("/api/conversations", body(type: theirType)))
            #expect(try await me.get("/api/conversations").json["meta"]?["total"] == 0, "refused, nothing made")

            let conversation = try await Self.conversation(me, contact: john, type: signal)
            let path = "/api/conversations/\(conversation)"
            expectDataError(
                try await me.put(path, [:]),
                ["The happened at field is required.", "The contact field type id field is required."])
            expectNotFound(try await me.put(path, body(type: theirType, day: "2016-01-01")))
            expectNotFound(try await me.put(path, body(type: 999_999, day: "2016-01-01")))
            expectDataError(
                try await me.put("/api/conversations/999999", body()), ["The selected conversation id is invalid."])
            expectDataError(
                try await me.delete("/api/conversations/999999"), ["The selected conversation id is invalid."])
            let kept = try await me.get(path)
            #expect(kept.data?["happened_at"] == "2017-12-01T00:00:00Z", "refused changes change nothing")
            #expect(kept.data?["contact_field_type"]?["id"] == .int(signal))
        }
    }

    @Test(arguments: Engine.available)
    func messagesAreAddedChangedAndDeletedInTheOrderTheyWereWritten(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, server in
            let john = try await me.contact("John")
            let signal = try await Self.fieldType(me)
            let conversation = try await Self.conversation(me, contact: john, type: signal)
            let messages = "/api/conversations/\(conversation)/messages"
            let added = try await me.post(messages, Self.message)
            #expect(added.status == .ok, "Monica answers a new message with its conversation, and 200")
            expectStructure(added.json, Self.paths("data.") + Self.messageFields.map { "data.messages.*." + $0 })
            #expect(added.dataID == conversation)
            expectFragment(
                added,
                [
                    ("object", "message"), ("content", "lorem ipsum"), ("written_at", "1998-02-02T00:00:00Z"),
                    ("written_by_me", true),
                ])
            let first = try #require(added.data?["messages"]?[0]?["id"]?.intValue)
            #expect(added.data?["messages"]?[0]?["conversation"] == ["id": .int(conversation)])
            #expect(added.data?["messages"]?[0]?["contact"]?["id"] == .int(john))
            #expect(added.headers[.eTag] == nil, "the answer is the conversation, not the message written")

            // As written, then as added.
            _ = try await me.post(
                messages, ["written_at": "1998-02-01 23:00", "written_by_me": "0", "content": "earlier"])
            let last = try await me.post(
                messages, ["written_at": "1998-02-02", "written_by_me": false, "content": "same time"])
            #expect(Self.contents(last) == ["earlier", "lorem ipsum", "same time"])
            let shown = try await me.get("/api/conversations/\(conversation)")
            #expect(Self.contents(shown) == ["earlier", "lorem ipsum", "same time"])
            #expect(shown.data?["messages"]?[0]?["written_by_me"] == false)

            expectDataError(
                try await me.post(messages, [:]),
                [
                    "The written at field is required.", "The written by me field is required.",
                    "The content field is required.",
                ])
            expectDataError(
                try await me.post(messages, ["written_at": "1998-02-02", "written_by_me": "maybe", "content": "x"]),
                ["The written by me field must be true or false."])
            expectNotFound(try await me.post("/api/conversations/0/messages", Self.message))

            let changed = try await me.put(
                "\(messages)/\(first)", ["written_at": "1989-02-02", "written_by_me": false, "content": "changed"])
            #expect(changed.status == .ok)
            expectStructure(changed.json, Self.paths("data.") + Self.messageFields.map { "data.messages.*." + $0 })
            #expect(Self.contents(changed) == ["changed", "earlier", "same time"])
            expectFragment(changed, [("content", "changed"), ("written_at", "1989-02-02T00:00:00Z")])
            expectDataError(
                try await me.put("\(messages)/\(first)", [:]),
                [
                    "The written at field is required.", "The written by me field is required.",
                    "The content field is required.",
                ])

            // A message belongs to the conversation in its path.
            let elsewhere = try await Self.conversation(me, contact: john, type: signal)
            expectNotFound(try await me.put("/api/conversations/\(elsewhere)/messages/\(first)", Self.message))
            expectNotFound(try await me.delete("/api/conversations/\(elsewhere)/messages/\(first)"))
            expectNotFound(try await me.put("\(messages)/999999", Self.message))
            expectNotFound(try await me.delete("\(messages)/999999"))
            #expect(Self.contents(try await me.get("/api/conversations/\(elsewhere)")).isEmpty)
            #expect(Self.contents(try await me.get("/api/conversations/\(conversation)")).first == "changed")

            let deleted = try await me.delete("\(messages)/\(first)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .int(first)])
            #expect(Self.contents(try await me.get("/api/conversations/\(conversation)")) == ["earlier", "same time"])

            // Deleting a conversation deletes its messages.
            #expect(try await Self.messageCount(server, conversation: conversation) == 2)
            #expect(try await me.delete("/api/conversations/\(conversation)").status == .ok)
            #expect(try await Self.messageCount(server, conversation: conversation) == 0)
        }
    }

    /// A message's own version is what `If-Match` names on its change (`*`: it is there).
    @Test(arguments: Engine.available)
    func aMessageChangeChecksTheMessagesVersion(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let john = try await me.contact("John")
            let conversation = try await Self.conversation(me, contact: john, type: try await Self.fieldType(me))
            let added = try await me.post("/api/conversations/\(conversation)/messages", Self.message)
            let message = try #require(added.data?["messages"]?[0]?["id"]?.intValue)
            let path = "/api/conversations/\(conversation)/messages/\(message)"
            let stale = try await me.call(
                .put, path, ["written_at": "1998-02-02", "written_by_me": true, "content": "stale"],
                headers: [.ifMatch: "\"\(message)-1\""])
            #expect(stale.status == .preconditionFailed)
            #expect(Self.contents(try await me.get("/api/conversations/\(conversation)")) == ["lorem ipsum"])
            let starred = try await me.call(
                .put, path, ["written_at": "1998-02-02", "written_by_me": true, "content": "fresh"],
                headers: [.ifMatch: "*"])
            #expect(starred.status == .ok)
            #expect(Self.contents(starred) == ["fresh"])
            let staleDelete = try await me.call(.delete, path, headers: [.ifMatch: "\"\(message)-1\""])
            #expect(staleDelete.status == .preconditionFailed)
            #expect(Self.contents(try await me.get("/api/conversations/\(conversation)")) == ["fresh"])
        }
    }

    @Test(arguments: Engine.available)
    func anotherAccountSeesAndChangesNoneOfThem(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let john = try await me.contact("John")
            let signal = try await Self.fieldType(me)
            let conversation = try await Self.conversation(me, contact: john, type: signal)
            let added = try await me.post(
                "/api/conversations/\(conversation)/messages",
                ["written_at": "2017-12-01", "written_by_me": true, "content": "mine"])
            let message = try #require(added.data?["messages"]?[0]?["id"]?.intValue)
            let theirs = try await other.contact("Other")
            let theirType = try await Self.fieldType(other, "Theirs")

            #expect(try await other.get("/api/conversations").json["meta"]?["total"] == 0)
            expectNotFound(try await other.get("/api/conversations/\(conversation)"))
            expectNotFound(try await other.get("/api/contacts/\(john)/conversations"))
            expectNotFound(
                try await other.put(
                    "/api/conversations/\(conversation)",
                    ["happened_at": "2018-01-01", "contact_field_type_id": .int(theirType)]))
            expectNotFound(try await other.delete("/api/conversations/\(conversation)"))
            expectNotFound(try await other.post("/api/conversations/\(conversation)/messages", Self.message))
            expectNotFound(
                try await other.put("/api/conversations/\(conversation)/messages/\(message)", Self.message))
            expectNotFound(try await other.delete("/api/conversations/\(conversation)/messages/\(message)"))
            // Nor can another account talk to my contact, or over my type.
            expectNotFound(
                try await other.post(
                    "/api/conversations",
                    ["contact_id": .int(john), "contact_field_type_id": .int(theirType), "happened_at": "2018-01-01"]))
            expectNotFound(
                try await other.post(
                    "/api/conversations",
                    ["contact_id": .int(theirs), "contact_field_type_id": .int(signal), "happened_at": "2018-01-01"]))
            #expect(try await other.get("/api/conversations").json["meta"]?["total"] == 0)

            let mine = try await me.get("/api/conversations/\(conversation)")
            #expect(mine.data?["happened_at"] == "2017-12-01T00:00:00Z")
            #expect(Self.contents(mine) == ["mine"])
        }
    }
}
