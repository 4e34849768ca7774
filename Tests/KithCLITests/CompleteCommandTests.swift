import Foundation
import KithCore
import KithTestSupport
import Testing

/// `kith reminders complete` with checklist items not ticked: refused without `--yes`, naming
/// them, and nothing changes; with `--yes` it completes.
@Suite("kith reminders complete: asking first")
struct CompleteCommandTests {
    @Test("unticked items are named and --yes completes anyway")
    func askingFirst() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let (parent, child, _) = try await FamilyCommandTests.family(server, home: home)
                let added = try await parent.object([
                    "reminders", "add", "Groceries", "--due", FamilyCommandTests.tomorrow, "--assign", "Cleo",
                    "--item", "Milk", "--item", "Bread", "--item", "Eggs",
                ])
                let id = try #require(added["id"] as? String)
                _ = try await child.object(["reminders", "check", id, "Eggs"])
                let refused = await child.kith(["reminders", "complete", id])
                #expect(refused.exitCode == 1, "\(refused)")
                #expect(
                    refused.stderr == "error: 2 items are not ticked: Milk, Bread. Complete it anyway with --yes.\n")
                let still = try #require(try await child.array(["reminders"]).first { $0["id"] as? String == id })
                #expect(still["status"] as? String == "pending", "nothing changed")
                let done = try await child.object(["reminders", "complete", id, "--yes"])
                #expect(done["status"] as? String == "completed", "\(done)")
            }
        }
    }
}
