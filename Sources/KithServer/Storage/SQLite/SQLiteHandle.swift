import GRDBSQLite
import NIOCore
import SQLiteKit

/// One connection to the server's SQLite file, driven directly through the system library (the one
/// KithKit's GRDB links too, so the process holds one SQLite). Statements run on the calling thread
/// and stay prepared between requests; SQLiteNIO hopped to a thread pool and compiled the SQL again
/// for every statement (most of a small request's CPU). Not thread-safe: its owner lets
/// one task at a time use it (`SQLiteConnections`).
final class SQLiteHandle: @unchecked Sendable {
    /// Prepared statements kept per connection. SQL built with a variable number of binds (`IN`
    /// lists, batch inserts) makes new texts, so the cache is emptied when it reaches this size.
    static let statementCacheLimit = 256

    private var connection: OpaquePointer?
    /// Each prepared statement with its result's column names (found at its first row, then kept:
    /// finding them for every execution was a twentieth of a small request's CPU).
    private var statements: [String: (statement: OpaquePointer, columns: SQLiteResultRow.Columns?)] = [:]

    init(path: String) throws {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            throw SQLiteFailure(code: code, message: "cannot open \(path): \(message)")
        }
        connection = opened
    }

    deinit { close() }

    func close() {
        for prepared in statements.values { sqlite3_finalize(prepared.statement) }
        statements = [:]
        if let connection { sqlite3_close_v2(connection) }
        connection = nil
    }

    /// Runs one statement, handing each row to `onRow` before the next is read.
    func execute(_ sql: String, binds: [SQLiteData], onRow: (SQLiteResultRow) -> Void) throws {
        let (statement, known) = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(binds, to: statement)
        var columns = known
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            // A schema change (a migration) makes SQLite prepare the statement again, which may
            // change its columns: the count tells.
            let names: SQLiteResultRow.Columns
            if let columns, columns.count == Int(sqlite3_column_count(statement)) {
                names = columns
            } else {
                names = SQLiteResultRow.Columns(of: statement)
                columns = names
                statements[sql]?.columns = names
            }
            onRow(SQLiteResultRow(columns: names, values: (0..<names.count).map { Self.value(statement, column: Int32($0)) }))
        }
    }

    private func prepared(_ sql: String) throws -> (OpaquePointer, SQLiteResultRow.Columns?) {
        if let cached = statements[sql] { return cached }
        guard let connection else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "the connection is closed") }
        var statement: OpaquePointer?
        var rest = ""
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            rest = tail.map { String(cString: $0) } ?? ""
            return code
        }
        guard code == SQLITE_OK, let statement else { throw failure(code, sql: sql) }
        // A second statement in one string would be silently skipped; say so instead.
        if !rest.allSatisfy({ $0.isWhitespace || $0 == ";" }) {
            sqlite3_finalize(statement)
            throw SQLiteFailure(code: SQLITE_MISUSE, message: "one statement at a time: \(sql)")
        }
        if statements.count >= Self.statementCacheLimit {
            for old in statements.values { sqlite3_finalize(old.statement) }
            statements = [:]
        }
        statements[sql] = (statement, nil)
        return (statement, nil)
    }

    private func bind(_ binds: [SQLiteData], to statement: OpaquePointer) throws {
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer): code = sqlite3_bind_int64(statement, index, Int64(integer))
            case .float(let double): code = sqlite3_bind_double(statement, index, double)
            case .text(let text):
                // The length is given, so text holding a NUL is kept whole; the C string is never
                // a null pointer, which SQLite would bind as NULL instead of "".
                code = text.withCString { sqlite3_bind_text(statement, index, $0, Int32(text.utf8.count), Self.transient) }
            case .blob(let buffer):
                code = buffer.withUnsafeReadableBytes { bytes in
                    bytes.isEmpty
                        ? sqlite3_bind_zeroblob(statement, index, 0)
                        : sqlite3_bind_blob(statement, index, bytes.baseAddress, Int32(bytes.count), Self.transient)
                }
            case .null: code = sqlite3_bind_null(statement, index)
            }
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    private static func value(_ statement: OpaquePointer, column: Int32) -> SQLiteData {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .integer(Int(sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT: return .float(sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, column))
            guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return .blob(ByteBuffer()) }
            return .blob(ByteBuffer(bytes: UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func failure(_ code: Int32, sql: String? = nil) -> SQLiteFailure {
        let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "the connection is closed"
        return SQLiteFailure(code: code, message: sql.map { "\(message) in: \($0)" } ?? message)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound bytes before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// An error SQLite reported, with its message.
struct SQLiteFailure: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var description: String { "SQLite error \(code): \(message)" }
    var isNotADatabase: Bool { code == SQLITE_NOTADB }
}
