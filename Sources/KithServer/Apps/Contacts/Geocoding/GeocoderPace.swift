import Foundation
import SQLKit

/// At most one request to the geocoder per `interval`, across every server on the database (the
/// public Nominatim's usage policy: one a second). A job whose turn has not come is told when it
/// comes; that turn is kept for it, so the jobs queued at once go one per interval, in order,
/// instead of all trying again together. Time is the server's clock, so tests move it.
actor GeocoderPace {
    let database: KithDatabase
    let interval: Int64
    /// Turns handed out by this server, by job id, until the job comes back for it.
    private var reserved: [String: Int64] = [:]

    init(database: KithDatabase, interval: Duration) {
        self.database = database
        self.interval = max(interval.inMilliseconds, 0)
    }

    /// Nil when job `id` may ask the geocoder now (and the next request must wait an interval);
    /// else when its turn comes.
    func turn(for id: String, now: Int64) async throws -> Int64? {
        if let turn = reserved[id] {
            guard turn <= now else { return turn }
            reserved[id] = nil
            return nil
        }
        let engine = database.engine
        let interval = self.interval
        let turn = try await database.transaction { sql in
            let lock = SQLQueryString(engine == .postgres ? " FOR UPDATE" : "")
            let next =
                try await sql.raw("SELECT next_request_at FROM geocoder_pace WHERE id = 1\(lock)")
                .first(decodingColumn: "next_request_at", as: Int64.self) ?? 0
            let turn = max(now, next)
            try await sql.raw("UPDATE geocoder_pace SET next_request_at = \(bind: turn + interval) WHERE id = 1").run()
            return turn
        }
        guard turn > now else { return nil }
        reserved[id] = turn
        return turn
    }
}
