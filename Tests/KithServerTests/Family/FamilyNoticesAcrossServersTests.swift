import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Two servers on one PostgreSQL database deliver a family's notices together: each arrives once
/// per (reminder, occurrence, kind, person), whichever server's runner takes it, and the live
/// socket on either server hears of it.
@Suite("Family notices across servers", .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
struct FamilyNoticesAcrossServersTests {
    @Test func twoServersDeliverEachNoticeOnce() async throws {
        try await TestServer.withLiveServer(.postgres, configure: FamilyNoticesTests.configure) { first, _, firstClient in
            let shared = try #require(first.config.databaseURL)
            try await TestServer.withLiveServer(.postgres, sharedDatabaseURL: shared, configure: FamilyNoticesTests.configure) {
                second, secondPort, secondClient in
                let (parent, child, family) = try await FamilyCalls.parentAndChild(firstClient, first)
                let socket = try await LiveTestSocket.open(port: secondPort, token: child.token)
                #expect(await socket.nextMessage() == .ready)
                // Half the reminders written through each server.
                var ids: [UUID] = []
                for index in 0..<20 {
                    let (server, client) = index.isMultiple(of: 2) ? (first, firstClient) : (second, secondClient)
                    ids.append(
                        try await FamilyNoticesTests.remind(
                            client, server, parent, family, for: child.userID, in: 10, title: "Task \(index)"))
                }
                // Both servers' clocks pass 3, 2, 1 minutes before and the due time: each time both
                // runners race for the 20 notices that came due.
                first.clock.advance(by: 7 * 60)
                second.clock.advance(by: 7 * 60)
                for step in 1...4 {
                    try await eventually(within: .seconds(60)) {
                        try await FamilyNoticesTests.inbox(firstClient, child, query: "?limit=200").notices.count >= 20 * step
                    }
                    first.clock.advance(by: 60)
                    second.clock.advance(by: 60)
                }
                // A job run twice would have run again by now: both runners have made a pass since.
                try await first.app.jobsCaughtUp()
                try await second.app.jobsCaughtUp()
                let notices = try await FamilyNoticesTests.inbox(secondClient, child, query: "?limit=200").notices
                #expect(notices.count == 80, "4 notices x 20 reminders, each once")
                let keys = Set(notices.map { "\($0.reminderId) \($0.kind.rawValue)" })
                #expect(keys.count == 80)
                #expect(Set(notices.map(\.reminderId)) == Set(ids.map(\.lowercased)))
                // The socket on the second server heard notices, whichever runner delivered them
                // (after the nudges of the reminders' own changes).
                var heard = 0
                for _ in 0..<200 where heard < 80 {
                    guard let message = await socket.nextMessage() else { break }
                    if message.type == .notice { heard += 1 }
                }
                #expect(heard == 80, "each notice once on the live socket")
                socket.close()
            }
        }
    }
}
