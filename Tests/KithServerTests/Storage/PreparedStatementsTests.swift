import Foundation
import KithTestSupport
import Logging
import SQLKit
import Testing

@testable import KithServer

/// PostgreSQL statements kept prepared per connection: the same statement is prepared once and
/// then only run, each shape of values (a null, a text, a number) gets its own, values of other
/// types and many values run unnamed, an `IN` list of any length is one statement, and with the
/// setting off nothing is prepared (a pooler in transaction mode).
@Suite("PostgreSQL prepared statements", .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
struct PreparedStatementsTests {
    static func withDatabase(prepared: Bool, _ body: (KithDatabase) async throws -> Void) async throws {
        let scratch = try await PostgresScratch.create()
        var logger = Logger(label: "kith-test")
        logger.logLevel = .warning
        let database = try await KithDatabase.open(
            .postgres(url: scratch.url), logger: logger, migrate: false, preparedStatements: prepared)
        do {
            try await body(database)
        } catch {
            await database.close()
            await scratch.drop()
            throw error
        }
        await database.close()
        await scratch.drop()
    }

    /// The names of the statements prepared on the connection `sql` runs on.
    static func prepared(_ sql: any SQLDatabase) async throws -> [String] {
        try await sql.raw("SELECT name FROM pg_prepared_statements ORDER BY name").all(decodingColumn: "name", as: String.self)
    }

    /// The value as text, "none" for a null: one statement text whatever the value's type.
    static func echo<Value: Encodable & Sendable>(_ value: Value, _ sql: any SQLDatabase) async throws -> String? {
        try await sql.raw("SELECT CAST(COALESCE(CAST(\(bind: value) AS TEXT), 'none') AS TEXT) AS v")
            .first(decodingColumn: "v", as: String.self)
    }

    @Test func aStatementIsPreparedOnceAndEachShapeOfValuesHasItsOwn() async throws {
        try await Self.withDatabase(prepared: true) { database in
            // One connection throughout (`run`), so its prepared statements can be counted.
            let seen: [String] = try await database.run { sql in
                var seen: [String] = []
                func note(_ text: String?) { seen.append(text ?? "nil") }
                note(try await Self.echo("ada", sql))
                note(try await Self.echo("grace", sql))
                note("\(try await Self.prepared(sql).count) prepared")
                note(try await Self.echo(String?.none, sql))
                note(try await Self.echo(42, sql))
                note(try await Self.echo(true, sql))
                note("\(try await Self.prepared(sql).count) prepared")
                note(try await Self.echo("ada", sql))
                // A value of another type, and more values than a statement is named for, run unnamed.
                note(try await sql.raw("SELECT CAST(\(bind: Date(timeIntervalSince1970: 0)) AS TEXT) AS v")
                    .first(decodingColumn: "v", as: String.self).map { _ in "a date" })
                let values = 0...PreparedStatementDatabase.maximumValues
                var many = SQLQueryString("SELECT 0")
                for value in values {
                    many.appendInterpolation(unsafeRaw: " + CAST(")
                    many.appendInterpolation(bind: value)
                    many.appendInterpolation(unsafeRaw: " AS BIGINT)")
                }
                many.appendInterpolation(unsafeRaw: " AS v")
                note(try await sql.raw(many).first(decodingColumn: "v", as: Int.self).map(String.init))
                note("\(try await Self.prepared(sql).count) prepared")
                return seen
            }
            let sum = (0...PreparedStatementDatabase.maximumValues).reduce(0, +)
            #expect(
                seen == [
                    "ada", "grace", "1 prepared",  // the same text with a text value again: one statement
                    "none", "42", "true", "4 prepared",  // a null, a number and a flag: one each
                    "ada", "a date", "\(sum)", "4 prepared",  // still right; the rest ran unnamed
                ])
        }
    }

    /// The numbers of 1...40 among `values`, and of the names ada, alan and grace among `names`.
    static func members(_ values: [Int64], _ names: [String], _ sql: any SQLDatabase) async throws -> String {
        let numbers = try await sql.raw("SELECT v FROM generate_series(1, 40) AS v WHERE v \(in: values) ORDER BY v")
            .all(decodingColumn: "v", as: Int.self)
        let found = try await sql.raw(
            "SELECT n FROM (VALUES ('ada'), ('alan'), ('grace')) AS people(n) WHERE n \(in: names) ORDER BY n"
        ).all(decodingColumn: "n", as: String.self)
        return numbers.map(String.init).joined(separator: ",") + " " + found.joined(separator: ",")
    }

    @Test(arguments: [true, false]) func anInListOfAnyLengthIsOneStatement(prepared: Bool) async throws {
        try await Self.withDatabase(prepared: prepared) { database in
            let seen: [String] = try await database.run { sql in
                [
                    try await Self.members([], [], sql),
                    try await Self.members([7], ["grace"], sql),
                    try await Self.members(Array(stride(from: 2, through: 80, by: 2)), ["ada", "zed", "grace", "ada"], sql),
                    "\(try await Self.prepared(sql).count) prepared",
                ]
            }
            let evens = stride(from: 2, through: 40, by: 2).map(String.init).joined(separator: ",")
            // Forty values or none: the one statement for numbers and the one for names; a list
            // of one is an equality, a statement of its own.
            #expect(seen == [" ", "7 grace", "\(evens) ada,grace", prepared ? "4 prepared" : "0 prepared"])
        }
    }

    @Test func offNothingIsPrepared() async throws {
        try await Self.withDatabase(prepared: false) { database in
            let seen: [String] = try await database.run { sql in
                [try await Self.echo("ada", sql) ?? "nil", try await Self.echo("grace", sql) ?? "nil"]
                    + (try await Self.prepared(sql))
            }
            #expect(seen == ["ada", "grace"])
        }
    }
}
