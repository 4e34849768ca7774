import Foundation
import KithCore
import Testing

@testable import KithServer

/// The fixed ids test servers make: the same in every run, and never the same on two servers that
/// share a database.
@Suite("Fixed ids")
struct IdentifierSourceTests {
    @Test func sequentialIdsRepeatAndEachServerCountsUnderItsOwnNumber() {
        let ids = IdentifierSource.sequential()
        #expect(
            [ids.text(), ids.text()] == [
                "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002",
            ])
        #expect(IdentifierSource.sequential().text() == "00000000-0000-4000-8000-000000000001", "the same in every run")
        let second = IdentifierSource.sequential(server: 1)
        #expect(second.text() == "00000001-0000-4000-8000-000000000001")
        #expect(IdentifierSource.sequential(server: 0x1234_abcd).text() == "1234abcd-0000-4000-8000-000000000001")

        // The web pages' clock of each server stamps as its own node.
        let now = KithServer.Clock { Date(timeIntervalSince1970: 1_795_000_000) }
        let first = WebClock(wall: now, ids: .sequential()).stamp()
        let other = WebClock(wall: now, ids: .sequential(server: 1)).stamp()
        #expect(first.node == "web-00000000" && other.node == "web-00000001")
    }
}
