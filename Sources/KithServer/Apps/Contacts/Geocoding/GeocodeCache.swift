import Foundation
import KithCore
import SQLKit

/// The geocoder's answers by normalised search (`geocode_cache`): an address is asked once,
/// whichever account holds it. Nothing in a row says who asked.
struct GeocodeCache: Sendable {
    enum Answer: Sendable, Equatable {
        case found(Coordinates)
        case notFound
    }

    let database: KithDatabase

    /// The stored answer for `query`, nil when it was never asked.
    func answer(for query: String) async throws -> Answer? {
        try await database.run { sql in
            guard
                let row = try await sql.raw(
                    "SELECT found, latitude, longitude FROM geocode_cache WHERE query = \(bind: query)"
                ).first()
            else { return nil }
            guard try row.decode(column: "found", as: Int64.self) == 1,
                let point = Coordinates(
                    latitude: try row.decode(column: "latitude", as: Double?.self),
                    longitude: try row.decode(column: "longitude", as: Double?.self))
            else { return .notFound }
            return .found(point)
        }
    }

    /// Keeps `answer` for `query` (a second server storing the same answer changes nothing).
    func store(_ answer: Answer, for query: String, now: Int64) async throws {
        let point: Coordinates? = if case .found(let point) = answer { point } else { nil }
        try await database.run { sql in
            try await sql.raw(
                """
                INSERT INTO geocode_cache (query, found, latitude, longitude, asked_at)
                VALUES (\(bind: query), \(bind: point == nil ? 0 : 1), \(bind: point?.latitude),
                        \(bind: point?.longitude), \(bind: now))
                ON CONFLICT (query) DO NOTHING
                """
            ).run()
        }
    }
}
