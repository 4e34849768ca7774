import Foundation
import KithCore
import KithTestSupport
import SQLKit
import Testing

@testable import KithServer

/// Seed 003's indexes: reminders by (assignee, createdAt) and by (family, createdAt). A query of
/// that shape is planned on its index on both engines.
@Suite("Family reminder indexes")
struct FamilyIndexesTests {
    @Test(arguments: Engine.available)
    func remindersByAssigneeAndByFamilyUseTheirIndexes(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, _ in try await Self.check(engine, server) }
    }

    static func check(_ engine: Engine, _ server: TestServer) async throws {
        func field(_ name: String) -> String {
            engine == .postgres ? "((fields::jsonb) ->> '\(name)')" : "json_extract(fields, '$.\(name)')"
        }
        let queries = [
            "sync_records_reminder_assignee":
                "SELECT id FROM sync_records WHERE entity = 'family.reminder' AND \(field("assigneeId")) = 'x' ORDER BY \(field("createdAt"))",
            "sync_records_reminder_family":
                "SELECT id FROM sync_records WHERE entity = 'family.reminder' AND scope = 'family:x' ORDER BY \(field("createdAt"))",
        ]
        for (index, query) in queries {
            let plan = try await server.app.database.transaction { sql in
                if engine == .postgres {
                    // An empty table is cheaper to scan: ask for the plan an index would give.
                    try await sql.raw("SET LOCAL enable_seqscan = off").run()
                    return try await sql.raw("EXPLAIN \(unsafeRaw: query)").all().map { row in
                        (try? row.decode(column: "QUERY PLAN", as: String.self)) ?? ""
                    }
                }
                return try await sql.raw("EXPLAIN QUERY PLAN \(unsafeRaw: query)").all().map { row in
                    (try? row.decode(column: "detail", as: String.self)) ?? ""
                }
            }
            #expect(plan.joined(separator: "\n").contains(index), "\(engine): \(plan)")
        }
    }
}
