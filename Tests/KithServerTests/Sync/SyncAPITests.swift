import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

@Suite("Sync push and pull")
struct SyncAPITests {
    static let note = EntityDeclaration(
        name: "test.note", scope: .user,
        fields: [
            FieldDeclaration("title", .string(maxLength: 50)),
            FieldDeclaration("done", .bool, optional: true),
        ])

    static func withSyncServer(
        _ engine: Engine, _ body: @escaping @Sendable (TestServer, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await TestServer.withRouter(engine, configure: { $0.entities = EntityCatalog([note]) }, body)
    }

    struct Device {
        let token: String
        let userID: String
        var clock: HybridLogicalClock
        let now: Int64

        mutating func mutation(
            _ id: UUID, _ op: Mutation.Operation = .upsert, _ fields: [String: JSONTree] = [:], scope: String? = nil,
            entity: String = "test.note", skew: Int64 = 0
        ) -> Mutation {
            Mutation(
                mutationId: UUID(), entity: entity, id: id, scope: scope ?? "user:\(userID)", op: op, fields: fields,
                hlc: clock.tick(now: now + skew))
        }
    }

    static func device(_ session: AuthSessionResponse, node: String, server: TestServer) -> Device {
        Device(
            token: session.accessToken, userID: session.user.id.uuidString.lowercased(),
            clock: HybridLogicalClock(node: node), now: Int64(server.clock.now.timeIntervalSince1970 * 1000))
    }

    static func push(_ client: any TestClientProtocol, _ device: Device, _ mutations: [Mutation]) async throws
        -> PushResponse
    {
        let response = try await client.call(
            .post, "/v1/sync/push", body: PushRequest(clientId: UUID(), mutations: mutations), token: device.token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(PushResponse.self)
    }

    static func pull(_ client: any TestClientProtocol, _ device: Device, cursor: String? = nil, limit: Int? = nil)
        async throws -> PullResponse
    {
        var query: [String] = []
        if let cursor { query.append("cursor=\(cursor)") }
        if let limit { query.append("limit=\(limit)") }
        let response = try await client.call(
            .get, "/v1/sync/pull" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), token: device.token)
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(PullResponse.self)
    }

    /// Mutation ids are unique per account: another account reusing one (by chance or on purpose)
    /// has its change applied, not dropped as a duplicate of someone else's.
    @Test(arguments: Engine.available)
    func mutationIdsAreScopedToTheirAccount(engine: Engine) async throws {
        try await Self.withSyncServer(engine) { server, client in
            var ada = Self.device(try await client.signUp("ada@example.com"), node: "ada", server: server)
            var bob = Self.device(try await client.signUp("bob@example.com"), node: "bob", server: server)
            let shared = UUID()
            var adas = ada.mutation(UUID(), .upsert, ["title": .string("Ada's")])
            adas.mutationId = shared
            var bobs = bob.mutation(UUID(), .upsert, ["title": .string("Bob's")])
            bobs.mutationId = shared
            #expect(try await Self.push(client, ada, [adas]).results.map(\.status) == [.applied])
            #expect(try await Self.push(client, bob, [bobs]).results.map(\.status) == [.applied])
            #expect(try await Self.pull(client, bob).changes.map { $0.fields["title"] } == [.string("Bob's")])
            #expect(try await Self.push(client, bob, [bobs]).results.map(\.status) == [.duplicate])
        }
    }

    @Test(arguments: Engine.available)
    func pushedRecordsArePulledAndARetryIsADuplicate(engine: Engine) async throws {
        try await Self.withSyncServer(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            var phone = Self.device(session, node: "phone", server: server)
            let id = UUID()
            let create = phone.mutation(id, .upsert, ["title": .string("Buy milk")])
            let first = try await Self.push(client, phone, [create])
            #expect(first.results.map(\.status) == [.applied])
            let again = try await Self.push(client, phone, [create])
            #expect(again.results.map(\.status) == [.duplicate])

            let pulled = try await Self.pull(client, phone)
            #expect(pulled.changes.count == 1)
            #expect(pulled.changes.first?.id == id)
            #expect(pulled.changes.first?.fields == ["title": .string("Buy milk")])
            #expect(pulled.hasMore == false)
            // Nothing new after the cursor: the duplicate changed nothing.
            #expect(try await Self.pull(client, phone, cursor: pulled.cursor).changes.isEmpty)
            // Each push's cursor says where the scope stood as it ended: at its own write, or, having
            // written nothing, where the scope stands.
            #expect(first.cursor == pulled.cursor)
            #expect(again.cursor == pulled.cursor)
        }
    }

    @Test(arguments: Engine.available)
    func concurrentEditsMergePerFieldAndDeletionWins(engine: Engine) async throws {
        try await Self.withSyncServer(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            var phone = Self.device(session, node: "phone", server: server)
            var laptop = Self.device(session, node: "laptop", server: server)
            let id = UUID()
            _ = try await Self.push(client, phone, [phone.mutation(id, .upsert, ["title": .string("Draft")])])
            // Made offline on both: the laptop's later title and the phone's done flag both survive.
            let phoneEdit = phone.mutation(id, .upsert, ["done": .bool(true), "title": .string("Phone title")])
            let laptopEdit = laptop.mutation(id, .upsert, ["title": .string("Laptop title")], skew: 1000)
            _ = try await Self.push(client, laptop, [laptopEdit])
            _ = try await Self.push(client, phone, [phoneEdit])
            let merged = try #require(try await Self.pull(client, phone).changes.first)
            #expect(merged.fields == ["title": .string("Laptop title"), "done": .bool(true)])

            let delete = phone.mutation(id, .delete)
            #expect(try await Self.push(client, phone, [delete]).results.map(\.status) == [.applied])
            let stale = try await Self.push(
                client, laptop, [laptop.mutation(id, .upsert, ["title": .string("late")], skew: 5000)])
            #expect(stale.results.first?.status == .rejected)
            #expect(stale.results.first?.code == "deleted")
            #expect(stale.results.first?.record?.deleted == true)
            let final = try #require(try await Self.pull(client, laptop).changes.first)
            #expect(final.deleted)
        }
    }

    @Test(arguments: Engine.available)
    func badMutationsAreRejectedOneByOneAndOthersApply(engine: Engine) async throws {
        try await Self.withSyncServer(engine) { server, client in
            let ada = try await client.signUp("ada@example.com")
            let bob = try await client.signUp("bob@example.com")
            var phone = Self.device(ada, node: "phone", server: server)
            // A device whose clock runs 6 minutes ahead (its own clock: HLCs never go back).
            var fastClock = Self.device(ada, node: "fast", server: server)
            let bobScope = "user:\(bob.user.id.uuidString.lowercased())"
            let batch = [
                phone.mutation(UUID(), .upsert, ["title": .string("fine")]),
                phone.mutation(UUID(), .upsert, ["title": .string("x")], entity: "test.unknown"),
                phone.mutation(UUID(), .upsert, ["title": .string("into Bob's data")], scope: bobScope),
                fastClock.mutation(UUID(), .upsert, ["title": .string("from the future")], skew: 6 * 60 * 1000),
                phone.mutation(UUID(), .upsert, ["done": .bool(true)]),
                phone.mutation(UUID(), .upsert, ["title": .string(String(repeating: "t", count: 51))]),
                phone.mutation(UUID(), .upsert, ["title": .string("also fine")]),
            ]
            let results = try await Self.push(client, phone, batch).results
            #expect(
                results.map(\.status) == [.applied, .rejected, .rejected, .rejected, .rejected, .rejected, .applied])
            #expect(
                results.map { $0.code ?? "" } == [
                    "", "unknown_entity", "forbidden", "clock_skew", "validation_failed", "validation_failed", "",
                ])
            #expect(results.allSatisfy { $0.status == .applied || $0.message?.isEmpty == false })

            let bobDevice = Self.device(bob, node: "bob", server: server)
            #expect(
                try await Self.pull(client, bobDevice).changes.isEmpty,
                "Bob never sees Ada's records, nor a record in his scope")
            #expect(try await Self.pull(client, phone).changes.count == 2)
            // Bob can't take over Ada's record by its id either: the same id in his scope is a
            // record of his own, and Ada's stays as it was.
            let adaRecord = batch[0].id
            var bobPhone = bobDevice
            let takeover = try await Self.push(
                client, bobPhone, [bobPhone.mutation(adaRecord, .upsert, ["title": .string("mine")])])
            #expect(takeover.results.map(\.status) == [.applied])
            #expect(try await Self.pull(client, bobDevice).changes.map { $0.fields["title"] } == [.string("mine")])
            let adas = try await Self.pull(client, phone).changes
            #expect(adas.first { $0.id == adaRecord }?.fields["title"] == .string("fine"))
        }
    }

    @Test(arguments: Engine.available)
    func pullPagesByCursorAndLimits(engine: Engine) async throws {
        try await Self.withSyncServer(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            var phone = Self.device(session, node: "phone", server: server)
            let ids = (0..<7).map { _ in UUID() }
            _ = try await Self.push(client, phone, ids.map { phone.mutation($0, .upsert, ["title": .string("n")]) })
            var seen: [UUID] = []
            var cursor: String?
            var pages = 0
            repeat {
                let page = try await Self.pull(client, phone, cursor: cursor, limit: 3)
                seen += page.changes.map(\.id)
                cursor = page.cursor
                pages += 1
                if !page.hasMore { break }
            } while pages < 10
            #expect(pages == 3)
            #expect(seen == ids)

            for bad in ["?cursor=nonsense", "?limit=0", "?limit=1001", "?limit=x"] {
                let response = try await client.call(.get, "/v1/sync/pull\(bad)", token: phone.token)
                #expect(response.status == .badRequest, "\(bad)")
            }
            let tooMany = (0...500).map { _ in phone.mutation(UUID(), .upsert, ["title": .string("n")]) }
            let refused = try await client.call(
                .post, "/v1/sync/push", body: PushRequest(clientId: UUID(), mutations: tooMany), token: phone.token)
            #expect(refused.status == .contentTooLarge)
            #expect(refused.error?.message.contains("500") == true)
            #expect(try await client.call(.get, "/v1/sync/pull").status == .unauthorized)
        }
    }

    @Test(arguments: Engine.available)
    func deletingTheAccountRemovesItsRecordsAndHistory(engine: Engine) async throws {
        try await Self.withSyncServer(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            var phone = Self.device(session, node: "phone", server: server)
            _ = try await Self.push(client, phone, [phone.mutation(UUID(), .upsert, ["title": .string("secret")])])
            let userID = session.user.id.uuidString.lowercased()
            #expect(
                !(try await RowScanner.rows(mentioning: [userID, "user:\(userID)"], in: server.app.database)).isEmpty)
            let deleted = try await client.call(
                .delete, "/v1/me", json: #"{"password":"correct horse"}"#, token: session.accessToken)
            #expect(deleted.status == .noContent)
            let left = try await RowScanner.rows(mentioning: [userID, "user:\(userID)"], in: server.app.database)
            #expect(left.isEmpty, "\(left)")
        }
    }
}
