import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// SQLKit's view of one `SQLiteHandle`: queries are serialized by SQLiteKit's dialect, binds
/// encoded by its encoder, and the statement runs at once on the calling thread.
struct SQLiteHandleDatabase: SQLDatabase {
    private static let encoder = SQLiteDataEncoder()

    let handle: SQLiteHandle
    let logger: Logger
    let eventLoop: any EventLoop = MultiThreadedEventLoopGroup.singleton.any()

    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeCompletedFuture { try run(query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try run(query, onRow)
    }

    private func run(_ query: any SQLExpression, _ onRow: @Sendable (any SQLRow) -> Void) throws {
        let (sql, binds) = serialize(query)
        try handle.execute(sql, binds: try binds.map { try Self.data(of: $0) }) { onRow($0) }
    }

    /// A bound value as SQLite stores it. The types Kith binds are converted here directly, as
    /// SQLiteKit's encoder would convert them; anything else goes through that encoder (which looks
    /// up a protocol conformance, or encodes through a `Encoder`, for every value: a tenth of a
    /// small request's CPU).
    static func data(of value: any Encodable) throws -> SQLiteData {
        switch value {
        case let text as String: return .text(text)
        case let integer as Int64: return .integer(Int(integer))
        case let integer as Int: return .integer(integer)
        case let stored as DBValue:
            switch stored {
            case .null: return .null
            case .int(let integer): return .integer(Int(integer))
            case .double(let double): return .float(double)
            case .text(let text): return .text(text)
            }
        default: return try encoder.encode(value)
        }
    }
}
