import Logging
import NIOCore
import PostgresKit
import SQLKit
import Synchronization

/// One pooled PostgreSQL connection as SQLKit sees it, with statements kept prepared: the first time
/// a connection runs a statement it is parsed and planned under a name, and every later run sends
/// only its values (docs/storage.md, "PostgreSQL"). A statement whose text and value types were seen
/// before gets the same name on every connection (`PreparedStatementNames`). Statements that can't
/// be named, because a value is of a type not listed here or there are too many values (a
/// multi-row insert), or that take no values (`BEGIN`, `COMMIT`), run unnamed as before. An `IN`
/// list is one array value (`SQLInList`), so its statement is named whatever the list's length.
///
/// Off (`KITH_DATABASE_PREPARED_STATEMENTS=off`) behind a pooler in transaction mode that does not
/// carry prepared statements between its connections (PgBouncer before 1.21).
struct PreparedStatementDatabase: SQLDatabase {
    let connection: PostgresConnection
    let names: PreparedStatementNames
    /// PostgresKit's own SQLKit database on the same connection: every statement runs unnamed.
    let unnamed: any SQLDatabase

    /// More values than this, and the statement is one of many shapes (a batch's rows, of one
    /// length each): naming each would fill every connection with statements used once.
    static let maximumValues = 24

    init(connection: PostgresConnection, names: PreparedStatementNames) {
        self.connection = connection
        self.names = names
        self.unnamed = connection.sql(queryLogLevel: nil)
    }

    var logger: Logger { connection.logger }
    var eventLoop: any EventLoop { connection.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { nil }
    var dialect: any SQLDialect { PostgresDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<
        Void
    > {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (text, values) = serialize(query)
        guard (1...Self.maximumValues).contains(values.count), let (bindings, types) = Self.bindings(of: values),
            let name = names.name(for: text, types: types)
        else {
            return try await unnamed.execute(sql: query, onRow)
        }
        try await NamedStatement.$current.withValue(NamedStatement.Text(name: name, sql: text)) {
            for try await row in try await connection.execute(NamedStatement(bindings: bindings), logger: logger) {
                onRow(row.sql())
            }
        }
    }

    /// The values as PostgreSQL bindings, with a letter per value's type (a statement is prepared
    /// for the types of its values: a null, a text and a number are three statements); nil when a
    /// value is of another type.
    static func bindings(of values: [any Encodable & Sendable]) -> (PostgresBindings, String)? {
        var bindings = PostgresBindings(capacity: values.count)
        var types = ""
        types.reserveCapacity(values.count)
        for value in values {
            if let optional = value as? any OptionalValue, optional.isNone {
                bindings.appendNull()
                types.append("n")
                continue
            }
            switch value {
            case let text as String:
                bindings.append(text)
                types.append("t")
            case let number as Int64:
                bindings.append(number)
                types.append("l")
            case let number as Int:
                bindings.append(number)
                types.append("i")
            case let number as Int32:
                bindings.append(number)
                types.append("s")
            case let number as Double:
                bindings.append(number)
                types.append("d")
            case let flag as Bool:
                bindings.append(flag)
                types.append("b")
            // A list as one array value (`SQLInList`). An empty array casts to every array
            // type, so the list's own type decides.
            case let texts as [String] where Self.isList(value, of: String.self):
                bindings.append(texts)
                types.append("T")
            case let numbers as [Int64] where Self.isList(value, of: Int64.self):
                bindings.append(numbers)
                types.append("L")
            case let numbers as [Int] where Self.isList(value, of: Int.self):
                bindings.append(numbers)
                types.append("I")
            default:
                return nil
            }
        }
        return (bindings, types)
    }

    private static func isList<Element>(_ value: any Encodable & Sendable, of: Element.Type) -> Bool {
        ObjectIdentifier(type(of: value)) == ObjectIdentifier([Element].self)
    }
}

extension SQLDatabase {
    /// The same connection with its statements planned for their values on every run, never kept
    /// prepared. A statement kept prepared is planned for its values a few times, then PostgreSQL
    /// may keep one generic plan for the connection's life, made for the tables as they were then
    /// (until they are analysed again). For a lookup by a list of keys made while a table was
    /// small, that plan can be "every row of this user, then compare each with the list": fine for
    /// fifteen rows, a scan of the whole history once the table has grown (a push of 10,000 into
    /// a new database spent 1.2 of its 3 seconds there). Worth it where one statement does the work
    /// of many (a push batch's lookups): planning costs about 0.5 ms, not per row.
    var plannedPerRun: any SQLDatabase { (self as? PreparedStatementDatabase)?.unnamed ?? self }
}

/// The name of each statement the server prepares, the same on every connection of the process.
/// Bounded: past `limit` distinct statements the rest run unnamed (every connection keeps each
/// prepared statement, on the server and in PostgreSQL, for its life).
final class PreparedStatementNames: Sendable {
    static let limit = 1_000
    private let names = Mutex<[String: String]>([:])

    func name(for text: String, types: String) -> String? {
        let key = types + " " + text
        return names.withLock { names in
            if let name = names[key] { return name }
            guard names.count < Self.limit else { return nil }
            let name = "kith_\(names.count + 1)"
            names[key] = name
            return name
        }
    }
}

/// PostgresNIO prepares a statement by its type's `name` and `sql`, read while `execute` sends it
/// (and again for an error's message): a task-local value gives them for the statement in hand.
private struct NamedStatement: PostgresPreparedStatement {
    struct Text: Sendable {
        let name: String
        let sql: String
    }

    @TaskLocal static var current = Text(name: "", sql: "")
    static var name: String { current.name }
    static var sql: String { current.sql }

    typealias Row = PostgresRow
    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// An `Optional` seen through `any`, to tell a null value from a present one.
private protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    fileprivate var isNone: Bool { self == nil }
}
