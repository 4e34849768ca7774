import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// `/v1` at the edges: numbers at Int64's limits, timestamps in years 1 and 9999, and text whose
/// graphemes hide any number of code points. None may trap, and each is refused or kept whole.
@Suite("Sync and tokens: integers, dates and lengths at their edges")
struct SyncBoundsTests {
    static let edges = ["9223372036854775807", "-9223372036854775808", "99999999999999999999", "0", "-1", "1001", "x"]

    @Test(arguments: Engine.available)
    func pullLimitsAndCursorsAtTheEdges(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let session = try await client.signUp("ada@example.com")
            for limit in Self.edges {
                let answer = try await client.call(.get, "/v1/sync/pull?limit=\(limit)", token: session.accessToken)
                #expect(answer.status == .badRequest, "limit=\(limit): \(answer.text)")
                #expect(answer.error?.field == "limit")
            }
            #expect(try await client.call(.get, "/v1/sync/pull?limit=1000", token: session.accessToken).status == .ok)
            let scope = "user:\(session.user.id.lowercased)"
            let farthest = try await client.call(
                .get, "/v1/sync/pull?cursor=\(Self.cursor("\(scope)=9223372036854775807"))", token: session.accessToken)
            #expect(farthest.status == .ok, "\(farthest.text)")
            #expect(try farthest.decode(PullResponse.self).changes.isEmpty)
            for position in ["99999999999999999999", "-1", "-9223372036854775808", ""] {
                let answer = try await client.call(
                    .get, "/v1/sync/pull?cursor=\(Self.cursor("\(scope)=\(position)"))", token: session.accessToken)
                #expect(answer.status == .badRequest, "position \(position): \(answer.text)")
            }
        }
    }

    /// Outreach timestamps at the first and last instants the wire format can carry are kept, pulled
    /// back as they were, and shown by the web page.
    @Test(arguments: Engine.available)
    func timestampsInYearOneAndYear9999(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let session = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            var device = SyncAPITests.device(session, node: "phone", server: server)
            let times = ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]
            var mutations: [Mutation] = []
            for (index, time) in times.enumerated() {
                var fields = OutreachFields.newContact(
                    year: year, first: "Edge\(index)", last: "Time", enterprise: "E", comments: "")
                fields["delivered"] = .bool(true)
                fields["deliveredAt"] = .string(time)
                mutations.append(device.mutation(UUID(), .upsert, fields, entity: OutreachEntities.contact.name))
            }
            let pushed = try await SyncAPITests.push(client, device, mutations)
            #expect(pushed.results.map(\.status) == [.applied, .applied], "\(pushed.results)")
            let pulled = try await OutreachPagesTests.pulled(client, token: session.accessToken)
            let delivered = Set(pulled.compactMap { $0.fields["deliveredAt"]?.stringValue })
            #expect(delivered == Set(times))
            let page = try await browser.get(client, "/outreach?year=\(year.lowercased)")
            #expect(page.status == .ok)
            #expect(page.text.contains("1 Jan 1, 00:00 UTC"))
            #expect(page.text.contains("31 Dec 9999, 23:59 UTC"))
            #expect(try await browser.get(client, "/outreach/export?year=\(year.lowercased)").status == .ok)
        }
    }

    /// Foundation's ISO 8601 parser is lenient (February 30 reads as March 2, year 0 as year 1):
    /// what is not a real instant in years 1 to 9999 is refused, not stored as sent.
    @Test(arguments: Engine.available)
    func impossibleTimestampsAreRefused(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (_, year) = try await OutreachPagesTests.signedUp(client, "ada@example.com")
            let session = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            var device = SyncAPITests.device(session, node: "phone", server: server)
            let bad = [
                "0000-01-01T00:00:00.000Z", "10000-01-01T00:00:00.000Z", "2026-02-30T00:00:00.000Z",
                "2026-01-01T24:00:00.000Z", "2026-13-01T00:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01",
                "2026-01-01T00:00:00", "2026-01-01T00:00:00+25:00",
            ]
            for time in bad {
                var fields = OutreachFields.newContact(year: year, first: "A", last: "B", enterprise: "E", comments: "")
                fields["delivered"] = .bool(true)
                fields["deliveredAt"] = .string(time)
                let pushed = try await SyncAPITests.push(
                    client, device, [device.mutation(UUID(), .upsert, fields, entity: OutreachEntities.contact.name)])
                #expect(pushed.results.first?.status == .rejected, "\(time)")
                #expect(pushed.results.first?.code == "validation_failed", "\(time)")
            }
            #expect(WireCoding.parseTimestamp("2024-02-29T23:59:59.999+02:00") != nil, "a leap day with an offset is real")
        }
    }

    @Test(arguments: Engine.available)
    func clocksAtTheEdgeAreRefusedNotTrusted(engine: Engine) async throws {
        try await SyncAPITests.withSyncServer(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            let device = SyncAPITests.device(session, node: "phone", server: server)
            let latest = try #require(HLC("999999999999999-99999-phone"))
            let mutation = Mutation(
                mutationId: UUID(), entity: "test.note", id: UUID(), scope: "user:\(device.userID)", op: .upsert,
                fields: ["title": .string("far future")], hlc: latest)
            let pushed = try await SyncAPITests.push(client, device, [mutation])
            #expect(pushed.results.first?.code == "clock_skew")
            let pulled = try await SyncAPITests.pull(client, device)
            #expect(pulled.changes.isEmpty)
        }
    }

    /// Every field a write touches carries its stamp's node to every reader: a node of 900 KB made
    /// every member's next pull weigh megabytes. A node is at most 64 characters.
    @Test(arguments: Engine.available)
    func aStampsNodeIsBounded(engine: Engine) async throws {
        try await SyncAPITests.withSyncServer(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            let device = SyncAPITests.device(session, node: "phone", server: server)
            func note(node: String) -> Mutation {
                Mutation(
                    mutationId: UUID(), entity: "test.note", id: UUID(), scope: "user:\(device.userID)", op: .upsert,
                    fields: ["title": .string("node of \(node.unicodeScalars.count)")],
                    hlc: HLC(wallMillis: device.now, counter: 0, node: node))
            }
            let huge = String(repeating: "n", count: 900_000)
            let pushed = try await SyncAPITests.push(
                client, device, [note(node: huge), note(node: String(repeating: "é", count: 65)), note(node: String(repeating: "é", count: 64))])
            #expect(pushed.results.map(\.status) == [.rejected, .rejected, .applied])
            #expect(pushed.results.first?.code == "validation_failed")
            #expect(pushed.results.first?.message == "A stamp's node is at most 64 characters.")
            let pulled = try await SyncAPITests.pull(client, device)
            #expect(pulled.changes.map { $0.fields["title"] } == [.string("node of 64")])
        }
    }

    /// Limits count code points: a name of one letter and a thousand combining accents is one
    /// "character" to Swift's `count`, and was accepted.
    @Test(arguments: Engine.available)
    func lengthsCountCodePoints(engine: Engine) async throws {
        try await SyncAPITests.withSyncServer(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            let heavy = "e" + String(repeating: "\u{0301}", count: 1000)
            #expect(heavy.count == 1)
            let token = try await client.call(.post, "/v1/tokens", body: CreateTokenRequest(name: heavy), token: session.accessToken)
            #expect(token.status == .unprocessableContent, "\(token.text)")
            let longest = String(repeating: "é", count: CredentialRules.maximumTokenNameLength)
            let kept = try await client.call(.post, "/v1/tokens", body: CreateTokenRequest(name: longest), token: session.accessToken)
            #expect(kept.status == .created, "\(kept.text)")

            var device = SyncAPITests.device(session, node: "phone", server: server)
            let refused = try await SyncAPITests.push(
                client, device, [device.mutation(UUID(), .upsert, ["title": .string(heavy)])])
            #expect(refused.results.first?.status == .rejected)
            #expect(refused.results.first?.code == "validation_failed")
            #expect(try await SyncAPITests.pull(client, device).changes.isEmpty)
        }
    }

    static func cursor(_ plain: String) -> String {
        Data(plain.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
