import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The server applies an app's operation (docs/sync.md, "Operations") in one transaction, all or
/// nothing, and a write key makes it safe to send again.
@Suite("Operations on the server")
struct OperationWriterTests {
    static let entities = Set(OutreachEntities.all.map(\.name))

    /// A year, then a person whose year does not exist: the rule refuses the second write.
    static let yearThenStrayPerson = RecordOperation<Void>(
        "test.yearThenStrayPerson", reads: [OutreachEntities.year, OutreachEntities.contact]
    ) { (draft) throws(APIErrorDetail) in
        _ = draft.create(OutreachEntities.year, OutreachFields.year(name: "2040", createdAt: draft.now))
        _ = draft.create(
            OutreachEntities.contact,
            OutreachFields.newContact(year: UUID(), first: "Ada", last: "Lovelace", enterprise: "Analytical", comments: ""))
    }

    /// A year, then a person whose name is over its limit: the field check refuses the second write.
    static let yearThenLongName = RecordOperation<UUID>(
        "test.yearThenLongName", reads: [OutreachEntities.year, OutreachEntities.contact]
    ) { (draft) throws(APIErrorDetail) in
        let year = draft.create(OutreachEntities.year, OutreachFields.year(name: "2041", createdAt: draft.now))
        _ = draft.create(
            OutreachEntities.contact,
            OutreachFields.newContact(
                year: year, first: String(repeating: "a", count: 10_000), last: "L", enterprise: "Analytical", comments: ""))
        return year
    }

    @Test("a refusal of an operation's second write leaves nothing of the first", arguments: Engine.available)
    func aRefusedSecondWriteWritesNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let user = try await client.signUp("ada@example.com").user.id.lowercased
            let stray = await #expect(throws: AppError.self) {
                try await server.app.operations.apply(Self.yearThenStrayPerson, userID: user)
            }
            #expect(stray?.detail.field == "yearId", "the refusal names the second write's field")
            let long = await #expect(throws: AppError.self) {
                try await server.app.operations.apply(Self.yearThenLongName, userID: user)
            }
            #expect(long?.status == .unprocessableContent && long?.detail.field == "firstName")
            let stored = try await SyncRepository(database: server.app.database).liveFields(Self.entities, in: "user:\(user)")
            #expect(stored.isEmpty, "neither year was written: \(stored.map(\.fields))")
        }
    }

    @Test("the same write key twice answers as the first time and writes once", arguments: Engine.available)
    func aWriteKeyMakesAReplayHarmless(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let ada = try await client.signUp("ada@example.com").user.id.lowercased
            let bob = try await client.signUp("bob@example.com").user.id.lowercased
            let operations = server.app.operations
            let add = OutreachOperations.addYear("2031")
            let answer: @Sendable (OutreachYear) -> String = { "/outreach?year=\($0.id.lowercased)" }
            let first = try await operations.apply(add, userID: ada, key: "click-1", request: "name=2031", answer: answer)
            let again = try await operations.apply(add, userID: ada, key: "click-1", request: "name=2031", answer: answer)
            #expect(again == first, "the replay answers what the first answered")
            let years = { (user: String) in
                try await SyncRepository(database: server.app.database)
                    .liveFields([OutreachEntities.year.name], in: "user:\(user)")
            }
            let adasYears = try await years(ada)
            #expect(adasYears.count == 1, "the replay wrote nothing")

            // Without the key the same change is a new one, refused by the rules (the name is taken).
            let duplicate = await #expect(throws: AppError.self) { try await operations.apply(add, userID: ada) }
            #expect(duplicate?.detail.code == "duplicate_year")

            // A key is the account's: Bob's "click-1" is his own.
            let bobs = try await operations.apply(add, userID: bob, key: "click-1", request: "name=2031", answer: answer)
            let bobsYears = try await years(bob)
            #expect(bobs != first && bobsYears.count == 1)

            // The same key for another change is refused, and changes nothing.
            let reused = await #expect(throws: AppError.self) {
                try await operations.apply(
                    OutreachOperations.addYear("2032"), userID: ada, key: "click-1", request: "name=2032", answer: answer)
            }
            #expect(reused?.status == .unprocessableContent && reused?.detail.field == "key")
            let afterReuse = try await years(ada)
            #expect(afterReuse.count == 1)

            // A key that is not one is refused before anything is written.
            let bad = await #expect(throws: AppError.self) {
                try await operations.apply(
                    OutreachOperations.addYear("2033"), userID: ada, key: "not a key", answer: answer)
            }
            #expect(bad?.status == .badRequest)
            let afterBad = try await years(ada)
            #expect(afterBad.count == 1)
        }
    }

    @Test("a refused operation does not use up its key", arguments: Engine.available)
    func aRefusalKeepsTheKeyFree(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let ada = try await client.signUp("ada@example.com").user.id.lowercased
            let operations = server.app.operations
            let answer: @Sendable (OutreachYear) -> String = { $0.name }
            await #expect(throws: AppError.self) {
                try await operations.apply(OutreachOperations.addYear("  "), userID: ada, key: "k-2", answer: answer)
            }
            let answered = try await operations.apply(
                OutreachOperations.addYear("2031"), userID: ada, key: "k-2", answer: answer)
            #expect(answered == "2031")
        }
    }
}
