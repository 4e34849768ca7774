import Foundation
import KithCore
import Testing

@testable import KithKit

/// A SwiftUI view binds to `OutreachStore` directly: its observable state changes after each of its
/// writes and after the sync engine pulls another device's changes or the server takes this one's.
@Suite("Outreach store: observable state")
@MainActor
struct OutreachStoreObservationTests {
    nonisolated static let userID = UUID()
    nonisolated static let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-17

    static func device(_ server: FakeSyncService) throws -> (OutreachStore, SyncEngine) {
        let store = try LocalStore(
            url: nil, catalog: .kith, userScope: "user:\(userID.uuidString.lowercased())", now: { now })
        return (OutreachStore(store: store, now: { now }), SyncEngine(store: store, service: server))
    }

    @Test func theStateFollowsTheStoresOwnWritesAtOnce() async throws {
        let (outreach, _) = try Self.device(FakeSyncService(userID: Self.userID))
        #expect(outreach.year == nil && outreach.people.isEmpty && !outreach.hasPendingChanges)

        let opened = ObservedChange { _ = outreach.year }
        let year = try outreach.selectedYear()
        #expect(opened.hasHappened)
        #expect(outreach.year == year && outreach.book.years == [year])

        let added = ObservedChange { _ = outreach.people }
        let ada = try outreach.addContact(
            to: year.id, firstName: "Ada", lastName: "Lovelace", enterpriseName: "Analytical")
        #expect(added.hasHappened, "set before addContact returns")
        #expect(outreach.people == [ada] && outreach.progress == OutreachProgress(delivered: 0, total: 1))

        let delivered = ObservedChange { _ = outreach.progress }
        try outreach.setDelivered(ada.id, true)
        #expect(delivered.hasHappened)
        #expect(
            outreach.progress == OutreachProgress(delivered: 1, total: 1) && outreach.people.first?.delivered == true)
        #expect(outreach.pendingChanges == (try outreach.store.pendingCount()) && outreach.hasPendingChanges)

        let other = try outreach.addYear("2027")
        let switched = ObservedChange { _ = outreach.year }
        try outreach.selectYear(other.id)
        #expect(switched.hasHappened)
        #expect(outreach.year == other && outreach.people.isEmpty && outreach.progress.total == 0)
    }

    @Test func theStateFollowsWhatTheSyncEnginePullsAndPushes() async throws {
        let server = FakeSyncService(userID: Self.userID)
        let (phone, phoneEngine) = try Self.device(server)
        let (laptop, laptopEngine) = try Self.device(server)
        let year = try phone.selectedYear()
        try await phoneEngine.sync()
        let opened = ObservedChange { _ = laptop.year }
        try await laptopEngine.sync()
        #expect(await opened.happened())
        #expect(laptop.year == year)

        // The laptop adds a person; the phone's list shows her once its engine pulls.
        try laptop.addContact(to: year.id, firstName: "Grace", lastName: "Hopper", enterpriseName: "Navy")
        try await laptopEngine.sync()
        let pulled = ObservedChange { _ = phone.people }
        try await phoneEngine.sync()
        #expect(await pulled.happened())
        #expect(phone.people.map(\.firstName) == ["Grace"] && phone.progress.total == 1)

        // The phone's own change waits to be synced until the server takes it.
        try phone.setDelivered(try #require(phone.people.first).id, true)
        #expect(phone.hasPendingChanges)
        let pushed = ObservedChange { _ = phone.pendingChanges }
        try await phoneEngine.sync()
        #expect(await pushed.happened())
        #expect(phone.pendingChanges == 0 && !phone.hasPendingChanges)

        let delivered = ObservedChange { _ = laptop.progress }
        try await laptopEngine.sync()
        #expect(await delivered.happened())
        #expect(laptop.progress == OutreachProgress(delivered: 1, total: 1))
    }
}
