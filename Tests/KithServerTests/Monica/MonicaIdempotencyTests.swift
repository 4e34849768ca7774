import Foundation
import HTTPTypes
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// `Idempotency-Key` on `/api` writes (Kith's, beyond Monica: docs/monica.md): the same key again
/// gets the first answer and writes nothing; another request with it is 422; one still being made
/// is 409; keys are per account; a failed change lets its key go.
@Suite("Monica API: Idempotency-Key")
struct MonicaIdempotencyTests {
    static let ada = contact("Ada")

    /// A new contact's body (no first name: a refused one).
    static func contact(_ first: String?) -> JSONTree {
        [
            "first_name": .nullable(first), "last_name": "Lovelace", "is_birthdate_known": false, "is_deceased": false,
            "is_deceased_date_known": false,
        ]
    }

    static func keyed(_ key: String) -> HTTPFields { [.idempotencyKey: key] }

    static func contactCount(_ user: MonicaUser) async throws -> Int64? {
        try await user.get("/api/contacts")["meta"]?["total"]?.intValue
    }

    @Test(arguments: Engine.available)
    func aCreateSentTwiceWithOneKeyIsMadeOnce(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let key = "6f1c7a52-5d3e-4c4b-9d1e-2a7f0c9b8e11"
            let first = try await me.call(.post, "/api/contacts", Self.ada, headers: Self.keyed(key))
            #expect(first.status == .created, "\(first.text)")
            #expect(first.headers[.idempotentReplayed] == nil)
            let again = try await me.call(.post, "/api/contacts", Self.ada, headers: Self.keyed(key))
            #expect(again.status == .created)
            #expect(again.text == first.text, "the first answer, as it was")
            #expect(again.headers[.eTag] == first.headers[.eTag])
            #expect(again.headers[.idempotentReplayed] == "true")
            #expect(try await Self.contactCount(me) == 1)

            // Keys are per account: another person's same key is their own.
            let theirs = try await other.call(.post, "/api/contacts", Self.ada, headers: Self.keyed(key))
            #expect(theirs.status == .created)
            #expect(theirs.headers[.idempotentReplayed] == nil)
            #expect(theirs.dataID != first.dataID)

            // Without a key, as Monica's clients send it: each request makes one.
            _ = try await me.post("/api/contacts", Self.ada)
            _ = try await me.post("/api/contacts", Self.ada)
            #expect(try await Self.contactCount(me) == 3)
            // A read ignores the header.
            #expect(try await me.call(.get, "/api/contacts", headers: Self.keyed(key)).status == .ok)
        }
    }

    /// A key names one request: used again for another body, path or method, it is refused and
    /// nothing is written.
    @Test(arguments: Engine.available)
    func aKeyUsedForAnotherRequestIsRefused(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let key = "key-for-one-change"
            #expect(try await me.call(.post, "/api/contacts", Self.ada, headers: Self.keyed(key)).status == .created)
            for (method, path, body) in [
                (HTTPRequest.Method.post, "/api/contacts", Self.contact("Grace")),
                (.post, "/api/contacts?with=contactfields", Self.ada),
                (.put, "/api/contacts/1", Self.ada),
            ] {
                let refused = try await me.call(method, path, body, headers: Self.keyed(key))
                #expect(refused.status == .unprocessableContent, "\(method) \(path): \(refused.text)")
                #expect(
                    refused.json
                        == [
                            "error": [
                                "message": [
                                    "This write key was already used for another change; send a new key for a new change."
                                ],
                                "error_code": 32,
                            ]
                        ])
            }
            #expect(try await Self.contactCount(me) == 1)
            #expect(try await me.get("/api/contacts?query=Grace").data?.arrayValue?.isEmpty == true)
        }
    }

    /// A change and a deletion sent again with their key get their first answer: the change does
    /// not meet its own new version as a stale `If-Match` (412), the deletion does not meet 404.
    @Test(arguments: Engine.available)
    func aChangeAndADeletionSentAgainGetTheirFirstAnswer(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let (contact, id, loaded) = try await me.noteWithItsVersion()
            var headers = Self.keyed("change-1")
            headers[.ifMatch] = loaded
            let body: JSONTree = ["contact_id": .int(contact), "body": "second"]
            let changed = try await me.call(.put, "/api/notes/\(id)", body, headers: headers)
            #expect(changed.status == .ok)
            let again = try await me.call(.put, "/api/notes/\(id)", body, headers: headers)
            #expect(again.status == .ok, "\(again.text)")
            #expect(again.headers[.eTag] == changed.headers[.eTag], "the version the change made")
            #expect(again.headers[.idempotentReplayed] == "true")

            let deleted = try await me.call(.delete, "/api/notes/\(id)", headers: Self.keyed("delete-1"))
            #expect(deleted.json == ["deleted": true, "id": .int(id)])
            let deletedAgain = try await me.call(.delete, "/api/notes/\(id)", headers: Self.keyed("delete-1"))
            #expect(deletedAgain.status == .ok)
            #expect(deletedAgain.json == deleted.json)
        }
    }

    /// Tags on a contact are added by name and removed by id (POST, no version to name): their key
    /// still makes a second press answer as the first, and a new tag made once.
    @Test(arguments: Engine.available)
    func aTagAddedAndRemovedTwiceWithTheirKeys(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let contact = try await me.contact("Ada")
            let body: JSONTree = ["tags": ["poetry"]]
            let added = try await me.call(.post, "/api/contacts/\(contact)/setTags", body, headers: Self.keyed("tag-1"))
            #expect(added.status == .ok, "\(added.text)")
            let again = try await me.call(.post, "/api/contacts/\(contact)/setTags", body, headers: Self.keyed("tag-1"))
            #expect(again.headers[.idempotentReplayed] == "true")
            #expect(again.text == added.text)
            let tags = try await me.get("/api/tags")
            #expect(tags["meta"]?["total"] == 1)
            let tag = try #require(tags.data?[0]?["id"]?.intValue)
            let removal: JSONTree = ["tags": [.int(tag)]]
            let removed = try await me.call(
                .post, "/api/contacts/\(contact)/unsetTag", removal, headers: Self.keyed("untag-1"))
            #expect(removed.data?["tags"] == [])
            let removedAgain = try await me.call(
                .post, "/api/contacts/\(contact)/unsetTag", removal, headers: Self.keyed("untag-1"))
            #expect(removedAgain.headers[.idempotentReplayed] == "true")
            #expect(removedAgain.text == removed.text)
        }
    }

    /// A refused or failed change lets its key go: the same key with a corrected body is a new
    /// request, and makes its change.
    @Test(arguments: Engine.available)
    func aRefusedChangeLetsItsKeyGo(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let key = "retry-after-a-refusal"
            expectDataError(
                try await me.call(.post, "/api/contacts", Self.contact(nil), headers: Self.keyed(key)),
                ["The first name field is required."])
            let made = try await me.call(.post, "/api/contacts", Self.ada, headers: Self.keyed(key))
            #expect(made.status == .created, "\(made.text)")
            #expect(try await Self.contactCount(me) == 1)

            // A stale If-Match (412) is a refusal too.
            let id = try #require(made.dataID)
            var stale = Self.keyed("stale-change")
            stale[.ifMatch] = "\"\(id)-1\""
            #expect(
                try await me.call(.put, "/api/contacts/\(id)", Self.ada, headers: stale).status == .preconditionFailed)
            let current = try await me.call(.put, "/api/contacts/\(id)", Self.ada, headers: Self.keyed("stale-change"))
            #expect(current.status == .ok, "\(current.text)")
        }
    }

    @Test(arguments: Engine.available)
    func aKeyThatIsNotOneShortPrintableTextIsRefused(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            var twice = HTTPFields()
            twice.append(HTTPField(name: .idempotencyKey, value: "one"))
            twice.append(HTTPField(name: .idempotencyKey, value: "two"))
            for headers in [Self.keyed(String(repeating: "k", count: 129)), Self.keyed("clé"), twice] {
                let refused = try await me.call(.post, "/api/contacts", Self.ada, headers: headers)
                #expect(refused.status == .badRequest)
                #expect(refused["error"]?["error_code"] == 41, "\(refused.text)")
                #expect(
                    refused["error"]?["message"]?.stringValue?.hasPrefix("The Idempotency-Key header must be one value")
                        == true)
            }
            #expect(try await Self.contactCount(me) == 0)
        }
    }

    /// A request whose key another request holds, still making its change: 409, nothing written.
    @Test(arguments: Engine.available)
    func aKeyStillInFlightIsAnswered409(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, server in
            let userID = try #require(try await me.get("/v1/me")["id"]?.stringValue)
            let body = ByteBuffer(bytes: Self.ada.serialized())
            let held = try #require(
                try WriteKey(
                    "held", userID: userID,
                    request: MonicaIdempotencyMiddleware.requestName(.post, "/api/contacts", body: body)))
            // Recorded now: a key recorded at time 0 is past its keeping, and the server's daily job
            // (which may run at any moment after start) would delete it first.
            try await server.app.database.transaction { sql in
                try await WriteKeys.record(held, answer: nil, now: server.clock.now.epochMillis, in: sql)
            }
            let busy = try await me.call(.post, "/api/contacts", Self.ada, headers: Self.keyed("held"))
            #expect(busy.status == .conflict)
            #expect(
                busy.json
                    == [
                        "error": [
                            "message": "This change is still being made. Wait a moment, then try again.",
                            "error_code": 44,
                        ]
                    ])
            #expect(try await Self.contactCount(me) == 0)
        }
    }

    /// The same create sent several times at once with one key (a double click, a retry racing
    /// the first): one contact; each answer is the contact made, or 409 while it was being made.
    @Test(arguments: Engine.available)
    func oneKeySentAtOnceMakesOneContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let answers = try await withThrowingTaskGroup(of: MonicaAnswer.self) { group in
                for _ in 1...6 {
                    group.addTask {
                        try await me.call(.post, "/api/contacts", Self.ada, headers: Self.keyed("double-click"))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(try await Self.contactCount(me) == 1)
            let made = answers.filter { $0.status == .created }
            #expect(!made.isEmpty)
            #expect(Set(made.compactMap(\.dataID)).count == 1, "every answer names the one contact")
            #expect(answers.allSatisfy { $0.status == .created || $0.status == .conflict }, "\(answers.map(\.status))")
        }
    }
}
