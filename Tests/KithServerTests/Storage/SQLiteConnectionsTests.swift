import Foundation
import KithCore
import KithTestSupport
import SQLKit
import Testing

@testable import KithServer

/// The server's own SQLite driver (Storage/SQLite): values go in and come out unchanged, reads take
/// their own connections, and the mistakes the old driver hid are refused.
@Suite("SQLite connections")
struct SQLiteConnectionsTests {
    private static func withDatabase(_ body: (KithDatabase) async throws -> Void) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try await KithDatabase.open(
            .sqlite(path: directory.appendingPathComponent("kith.sqlite").path), logger: .init(label: "kith-test"),
            migrate: false)
        do {
            try await database.run { try await $0.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT, blob BLOB, real REAL)").run() }
            try await body(database)
        } catch {
            await database.close()
            throw error
        }
        await database.close()
    }

    private struct Row: Codable, Equatable {
        var id: Int64
        var text: String?
        var blob: Data?
        var real: Double?
    }

    @Test func textBlobsNumbersAndNullsComeBackAsStored() async throws {
        try await Self.withDatabase { database in
            let rows = [
                Row(id: 1, text: "", blob: Data(), real: 0),
                Row(id: 2, text: "a\u{0}b — ü 😀", blob: Data([0, 1, 255]), real: -1.5),
                Row(id: 3, text: nil, blob: nil, real: nil),
                Row(id: Int64.max, text: String(repeating: "x", count: 100_000), blob: Data(repeating: 7, count: 70_000), real: 1e300),
            ]
            for row in rows {
                try await database.run {
                    try await $0.raw(
                        "INSERT INTO t (id, text, blob, real) VALUES (\(bind: row.id), \(bind: row.text), \(bind: row.blob), \(bind: row.real))"
                    ).run()
                }
            }
            let read = try await database.read { try await $0.raw("SELECT * FROM t ORDER BY id").all(decoding: Row.self) }
            #expect(read == rows)
            // An empty string is text, not NULL.
            let empties = try await database.read {
                try await $0.raw("SELECT COUNT(*) AS n FROM t WHERE text = ''").first(decodingColumn: "n", as: Int.self)
            }
            #expect(empties == 1)
        }
    }

    @Test func aReadDoesNotWaitForAWriteInProgress() async throws {
        try await Self.withDatabase { database in
            try await database.run { try await $0.raw("INSERT INTO t (id, text) VALUES (1, 'before')").run() }
            let writing = AsyncStream<Void>.makeStream()
            let release = AsyncStream<Void>.makeStream()
            let writer = Task {
                try await database.transaction { sql in
                    try await sql.raw("UPDATE t SET text = 'after' WHERE id = 1").run()
                    writing.continuation.yield()
                    for await _ in release.stream { break }
                }
            }
            for await _ in writing.stream { break }
            // The writer holds its transaction open: a read still answers, with the last commit.
            let during = try await database.read {
                try await $0.raw("SELECT text FROM t WHERE id = 1").first(decodingColumn: "text", as: String.self)
            }
            #expect(during == "before")
            release.continuation.yield()
            try await writer.value
            let after = try await database.read {
                try await $0.raw("SELECT text FROM t WHERE id = 1").first(decodingColumn: "text", as: String.self)
            }
            #expect(after == "after")
        }
    }

    @Test func aReadThatWritesFailsAndChangesNothing() async throws {
        try await Self.withDatabase { database in
            await #expect(throws: (any Error).self) {
                try await database.read { try await $0.raw("INSERT INTO t (id, text) VALUES (1, 'sneaked')").run() }
            }
            let count = try await database.read {
                try await $0.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
            }
            #expect(count == 0)
        }
    }

    @Test func twoStatementsInOneStringAreRefusedNotHalfRun() async throws {
        try await Self.withDatabase { database in
            let error = await #expect(throws: SQLiteFailure.self) {
                try await database.run {
                    try await $0.raw("INSERT INTO t (id) VALUES (1); INSERT INTO t (id) VALUES (2)").run()
                }
            }
            #expect(error?.message.contains("one statement at a time") == true)
            let count = try await database.read {
                try await $0.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
            }
            #expect(count == 0)
        }
    }

    @Test func manyReadsAtOnceAllAnswer() async throws {
        try await Self.withDatabase { database in
            try await database.run { try await $0.raw("INSERT INTO t (id, text) VALUES (1, 'one')").run() }
            // More readers than connections: the rest wait their turn, none is lost.
            let answers = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<(SQLiteConnections.readerCount * 8) {
                    group.addTask {
                        try await database.read {
                            try await $0.raw("SELECT text FROM t WHERE id = 1").first(decodingColumn: "text", as: String.self)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == SQLiteConnections.readerCount * 8)
            #expect(answers.allSatisfy { $0 == "one" })
        }
    }
}
