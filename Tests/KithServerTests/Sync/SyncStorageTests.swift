import Foundation
import KithCore
import KithTestSupport
import Logging
import PostgresNIO
import SQLKit
import Testing

@testable import KithServer

/// How a scope's writes are stored (`SyncTransaction.store`): records take the scope's next
/// sequence values in order, with the mutations that wrote them; on PostgreSQL a batch of any
/// length is one prepared statement, and the change is announced to every server by its own
/// transaction, at commit.
@Suite("Sync storage")
struct SyncStorageTests {
    static func withDatabase(_ engine: Engine, _ body: (KithDatabase, String?) async throws -> Void) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let scratch = try await PostgresScratch.create(for: engine)
        var logger = Logger(label: "kith-test")
        logger.logLevel = .warning
        let location: DatabaseLocation =
            if let scratch { .postgres(url: scratch.url) } else {
                .sqlite(path: directory.appendingPathComponent("kith.sqlite").path)
            }
        let database = try await KithDatabase.open(location, logger: logger)
        do {
            try await body(database, scratch?.url)
        } catch {
            await database.close()
            await scratch?.drop()
            throw error
        }
        await database.close()
        await scratch?.drop()
    }

    static func note(_ title: String, in scope: String, deleted: Bool = false) -> SyncRecord {
        var record = SyncRecord(entity: "note", id: UUID(), scope: scope)
        record.fields = ["title": .string(title)]
        if deleted { record.deleted = HLC(wallMillis: 1_700_000_000_000, counter: 0, node: "phone") }
        return record
    }

    @Test(arguments: Engine.available)
    func recordsTakeTheNextSequenceValuesInOrderWithTheirMutations(engine: Engine) async throws {
        try await Self.withDatabase(engine) { database, _ in
            let repository = SyncRepository(database: database)
            // Applied mutations belong to an account.
            let ada = UUID().lowercased
            try await database.run { sql in
                try await sql.raw(
                    """
                    INSERT INTO users (id, email, password_hash, created_at, password_changed_at)
                    VALUES (\(bind: ada), 'ada@example.com', 'x', 0, 0)
                    """
                ).run()
            }
            let scope = "user:\(ada)"
            let small = [Self.note("Milk", in: scope), Self.note("Eggs", in: scope, deleted: true)]
            let large = (1...300).map { Self.note("Item \($0)", in: scope) }
            let mutations = (0..<(small.count + large.count)).map { _ in UUID() }
            let (ranges, prepared) = try await repository.inScope(scope) { store in
                let first = try await store.store(small, remembering: Array(mutations[..<2]), userID: ada, now: 1)
                let second = try await store.store(large, remembering: Array(mutations[2...]), userID: ada, now: 1)
                var prepared: Int?
                if engine == .postgres {
                    prepared = try await store.sql.raw(
                        "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE '%INSERT INTO sync_records%'"
                    ).first(decodingColumn: "n", as: Int.self)
                }
                return ([first, second], prepared)
            }
            #expect(ranges[0].count == 2 && ranges[1].count == 300)
            #expect(ranges[1].lowerBound == ranges[0].upperBound + 1, "the second batch follows the first")
            if engine == .postgres { #expect(prepared == 1, "a batch of 2 and one of 300 are one statement") }

            let (stored, lookupsPrepared) = try await repository.inScope(scope) { store in
                let stored = try await store.recordsAndAppliedMutations((small + large).map(\.id), mutations, by: ada)
                // Planned for its lists on every run: a plan kept from when the tables were small
                // would scan the user's whole history (`plannedPerRun`).
                var prepared: Int?
                if engine == .postgres {
                    prepared = try await store.sql.raw(
                        "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement LIKE '%UNION ALL%'"
                    ).first(decodingColumn: "n", as: Int.self)
                }
                return (stored, prepared)
            }
            if engine == .postgres { #expect(lookupsPrepared == 0) }
            #expect(stored.applied == Set(mutations))
            #expect(stored.records[small[0].id]?.record == small[0], "a live record stays live")
            #expect(stored.records[small[1].id]?.record == small[1], "a deleted one keeps its deletion's stamp")
            #expect(stored.records[small[1].id]?.seq == ranges[0].upperBound)
            #expect(large.enumerated().allSatisfy { stored.records[$1.id]?.seq == ranges[1].lowerBound + Int64($0) })
            #expect(try await repository.liveFields(["note"], in: scope).count == 1 + large.count)

            // Stored again: updated in place at new values, not added.
            let renamed = {
                var record = large[0]; record.fields = ["title": .string("Bread")]; return record
            }()
            let again = try await repository.inScope(scope) { try await $0.store([renamed]) }
            #expect(again == (ranges[1].upperBound + 1)...(ranges[1].upperBound + 1))
            let fields = try await repository.liveFields(["note"], in: scope)
            #expect(fields.count == 1 + large.count)
            #expect(fields.first { $0.id == renamed.id }?.fields == ["title": .string("Bread")])
        }
    }

    @Test(.enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"), .timeLimit(.minutes(1)))
    func aChangeIsAnnouncedWhenItsTransactionCommitsAndNeverWhenItRollsBack() async throws {
        try await Self.withDatabase(.postgres) { database, url in
            let repository = SyncRepository(database: database)
            let configuration = try KithDatabase.postgresConfiguration(url: try #require(url)).coreConfiguration
            let connection = try await PostgresConnection.connect(
                configuration: configuration, id: 1, logger: Logger(label: "kith-test-listener"))
            struct RolledBack: Error {}
            do {
                try await connection.listen(on: PostgresChangeChannel.name) { notifications in
                    await #expect(throws: RolledBack.self) {
                        try await repository.inScope("user:ada") { store in
                            _ = try await store.store([Self.note("Milk", in: "user:ada")])
                            throw RolledBack()
                        }
                    }
                    let committed = try await repository.inScope("user:ada") { store in
                        try await store.store([Self.note("Eggs", in: "user:ada"), Self.note("Tea", in: "user:ada")])
                    }
                    // Notifications arrive in commit order: had the rolled-back write's been sent, it
                    // would come first.
                    var received = notifications.makeAsyncIterator()
                    let first = try await received.next()
                    #expect(first?.payload == "user:ada \(committed.upperBound)")
                }
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
        }
    }
}
