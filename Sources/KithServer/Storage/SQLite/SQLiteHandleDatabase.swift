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
        try handle.execute(sql, binds: try binds.map { try Self.encoder.encode($0) }) { onRow($0) }
    }
}
