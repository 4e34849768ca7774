import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Outreach's rules across records, enforced by the server on push (docs/outreach.md): what one device
/// can't break, two devices can't break together either.
@Suite("Outreach rules on push")
struct OutreachRulesTests {
    static func year(_ device: inout SyncAPITests.Device, _ id: UUID, _ name: String, _ op: Mutation.Operation = .upsert)
        -> Mutation
    {
        device.mutation(
            id, op, op == .delete ? [:] : ["name": .string(name), "createdAt": .string("2026-11-21T10:00:00.000Z")],
            entity: "outreach.year")
    }

    static func contact(_ device: inout SyncAPITests.Device, _ id: UUID, year: UUID, _ first: String) -> Mutation {
        device.mutation(
            id, .upsert,
            [
                "yearId": .string(year.uuidString.lowercased()), "firstName": .string(first), "lastName": .string("L"),
                "enterpriseName": .string("E"),
            ], entity: "outreach.contact")
    }

    @Test(arguments: Engine.available)
    func yearNamesAreUniqueAndTheLastYearStays(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            var laptop = SyncAPITests.device(try await client.signUp("bob@example.com"), node: "laptop", server: server)
            let first = UUID()
            let second = UUID()
            let pushed = try await SyncAPITests.push(
                client, phone,
                [Self.year(&phone, first, "2026"), Self.year(&phone, second, " 2026 "), Self.year(&phone, UUID(), "2025")])
            #expect(pushed.results.map(\.status) == [.applied, .rejected, .applied])
            #expect(pushed.results[1].code == "duplicate_year")
            // Another account may use the same name.
            #expect(try await SyncAPITests.push(client, laptop, [Self.year(&laptop, UUID(), "2026")]).results.map(\.status) == [.applied])

            let deletions = try await SyncAPITests.push(
                client, phone, [Self.year(&phone, first, "", .delete), Self.year(&phone, second, "", .delete)])
            #expect(deletions.results.map(\.status) == [.applied, .applied], "deleting a year never created is harmless")
            let years = try await SyncAPITests.pull(client, phone).changes.filter { $0.entity == "outreach.year" && !$0.deleted }
            #expect(years.count == 1)
            let last = try #require(years.first?.id)
            let refused = try await SyncAPITests.push(client, phone, [Self.year(&phone, last, "", .delete)])
            #expect(refused.results.first?.code == "last_year")
        }
    }

    @Test(arguments: Engine.available)
    func aDeletedYearTakesItsPeopleAndTakesNoNewOnes(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var phone = SyncAPITests.device(try await client.signUp("ada@example.com"), node: "phone", server: server)
            var laptop = SyncAPITests.Device(
                token: phone.token, userID: phone.userID, clock: HybridLogicalClock(node: "laptop"), now: phone.now)
            let old = UUID()
            let kept = UUID()
            let ada = UUID()
            let alan = UUID()
            _ = try await SyncAPITests.push(
                client, phone,
                [
                    Self.year(&phone, old, "2025"), Self.year(&phone, kept, "2026"), Self.contact(&phone, ada, year: old, "Ada"),
                    Self.contact(&phone, alan, year: kept, "Alan"),
                ])
            let before = try await SyncAPITests.pull(client, phone)

            // The laptop deletes 2025 while the phone, offline, adds a person to it.
            _ = try await SyncAPITests.push(client, laptop, [Self.year(&laptop, old, "", .delete)])
            let late = try await SyncAPITests.push(client, phone, [Self.contact(&phone, UUID(), year: old, "Grace")])
            #expect(late.results.first?.code == "not_found")

            let after = try await SyncAPITests.pull(client, phone, cursor: before.cursor)
            #expect(Set(after.changes.filter(\.deleted).map(\.id)) == [old, ada], "the year and its person are deleted")
            let everything = try await SyncAPITests.pull(client, phone).changes
            #expect(everything.first { $0.id == alan }?.deleted == false, "other years' people stay")
        }
    }
}
