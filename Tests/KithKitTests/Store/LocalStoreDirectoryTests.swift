import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

@Suite("Local stores per account")
struct LocalStoreDirectoryTests {
    static func directory() throws -> LocalStoreDirectory {
        LocalStoreDirectory(url: try makeTemporaryDirectory("kith-stores"), catalog: TestEntities.catalog)
    }

    @Test func dataMadeBeforeSignUpIsAdoptedAndUploaded() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let ids = try {
            let anonymous = try directory.anonymousStore()
            return try ["breakfast", "lunch", "dinner"].map { try anonymous.save("test.note", fields: ["title": .string($0)]) }
        }()
        #expect(try directory.anonymousRecordCount() == 3)

        let account = UUID()
        let store = try directory.store(forUser: account)
        #expect(try directory.adoptAnonymousData(into: store) == 3)
        #expect(try directory.anonymousRecordCount() == 0, "the anonymous store is gone")
        #expect(Set(try store.records("test.note").map(\.id)) == Set(ids), "records keep their ids")
        #expect(try store.records("test.note").allSatisfy { $0.scope == "user:\(account.uuidString.lowercased())" })
        #expect(try store.pendingCount() == 3)

        // The first upload fails; nothing is lost and the retry sends it all.
        let server = FakeSyncService(userID: account)
        await server.fail(with: .offline)
        let engine = SyncEngine(store: store, service: server)
        _ = await expectKithError { try await engine.sync() }
        #expect(try store.pendingCount() == 3)
        await server.fail(with: nil)
        try await engine.sync()
        #expect(await server.liveRecordCount == 3)
        #expect(try store.pendingCount() == 0)
    }

    @Test func adoptionWithNothingToAdoptDoesNothing() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        #expect(try directory.adoptAnonymousData(into: try directory.store(forUser: UUID())) == 0)
    }

    @Test func eachAccountSeesOnlyItsOwnDataAndDeletionWipesIt() async throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let ada = UUID()
        let bob = UUID()
        try directory.store(forUser: ada).save("test.note", fields: ["title": .string("Ada's")])
        // Ada signs out; Bob signs in on the same device.
        #expect(try directory.store(forUser: bob).records("test.note").isEmpty)
        // Ada signs in again: her data (and queued change) is still there.
        let again = try directory.store(forUser: ada)
        #expect(try again.records("test.note").map { $0.string("title") } == ["Ada's"])
        #expect(try again.pendingCount() == 1)

        try directory.removeData(forUser: ada)
        #expect(try directory.store(forUser: ada).records("test.note").isEmpty)
    }
}
