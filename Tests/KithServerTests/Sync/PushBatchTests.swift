import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// A push's mutations of one scope are judged and stored together (`PushBatch`): each one must see
/// what the ones before it in the same push did, exactly as if they had been sent one at a time.
@Suite("Push batches")
struct PushBatchTests {
    @Test(arguments: Engine.available)
    func eachMutationSeesTheEarlierOnesOfItsPush(engine: Engine) async throws {
        try await SyncAPITests.withSyncServer(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            let note = UUID()
            let create = phone.mutation(note, .upsert, ["title": .string("Draft")])
            let retitle = phone.mutation(note, .upsert, ["title": .string("Final")])
            let invalid = phone.mutation(note, .upsert, ["title": .string(String(repeating: "t", count: 51))])
            let finish = phone.mutation(note, .upsert, ["done": .bool(true)])
            let other = UUID()
            let results = try await SyncAPITests.push(
                client, phone, [create, retitle, invalid, create, finish, phone.mutation(other, .upsert, ["title": .string("B")])]
            ).results
            #expect(results.map(\.status) == [.applied, .applied, .rejected, .duplicate, .applied, .applied])
            // The refusal carries the record as the push had left it so far, at a sequence value a pull agrees with.
            let current = try #require(results[2].record)
            #expect(current.fields == ["title": .string("Final")])

            let pulled = try await SyncAPITests.pull(client, phone)
            #expect(pulled.changes.map(\.id) == [note, other], "each record once, in the order of its last write")
            #expect(pulled.changes.first?.fields == ["title": .string("Final"), "done": .bool(true)])
            let seqs = pulled.changes.map(\.seq)
            #expect(current.seq < seqs[0] && seqs[0] < seqs[1])
            #expect(try await SyncAPITests.push(client, phone, [retitle, finish]).results.map(\.status) == [.duplicate, .duplicate])
        }
    }

    @Test(arguments: Engine.available)
    func aYearDeletedInThePushThatFilledItTakesItsPeople(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            let old = UUID()
            let kept = UUID()
            let ada = UUID()
            let alan = UUID()
            let results = try await SyncAPITests.push(
                client, phone,
                [
                    OutreachRulesTests.year(&phone, old, "2025"), OutreachRulesTests.year(&phone, kept, "2026"),
                    OutreachRulesTests.contact(&phone, ada, year: old, "Ada"),
                    OutreachRulesTests.contact(&phone, alan, year: kept, "Alan"),
                    OutreachRulesTests.year(&phone, old, "", .delete),
                    OutreachRulesTests.contact(&phone, UUID(), year: old, "Grace"),
                    OutreachRulesTests.year(&phone, UUID(), "2026"),
                ]
            ).results
            #expect(results.map(\.status) == [.applied, .applied, .applied, .applied, .applied, .rejected, .rejected])
            #expect(results.compactMap(\.code) == ["not_found", "duplicate_year"])
            let pulled = try await SyncAPITests.pull(client, phone).changes
            #expect(Set(pulled.filter(\.deleted).map(\.id)) == [old, ada])
            #expect(Set(pulled.filter { !$0.deleted }.map(\.id)) == [kept, alan])
        }
    }
}
