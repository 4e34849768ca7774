import Foundation
import KithCore
import SQLKit

/// Locates one address from its text (`contacts.geocode`, queued by `AddressGeocoding`): from the
/// cache when the same search was answered before, else from the geocoder, paced by
/// `GeocoderPace`. Safe to repeat: it writes only onto the address as it was queued for (the
/// same search, still no typed coordinates), so an edit made meanwhile is never given the old
/// text's place.
struct GeocodeJob: JobHandler {
    struct Payload: Codable {
        let address: Int64
    }

    /// A geocoder that is down or overloaded: 1 minute doubling to 6 hours, about two days in all.
    static let retryPolicy = JobRetryPolicy(maxAttempts: 12, firstDelay: .seconds(60), maximumDelay: .seconds(6 * 3600))

    let kind = AddressGeocoding.jobKind
    let retry = GeocodeJob.retryPolicy
    let database: KithDatabase
    let cache: GeocodeCache
    let pace: GeocoderPace
    let lookup: NominatimLookup
    let clock: Clock

    func run(_ job: Job) async throws {
        let id = try job.payload(as: Payload.self).address
        guard let address = try await waitingAddress(id), let query = address.geocodeQuery else { return }
        let postal = PostalAddress(
            street: address.street, city: address.city, province: address.province, postalCode: address.postalCode,
            countryCode: address.country)
        // Located by an older rule of searching: left for its next edit rather than guessed at.
        guard let search = NominatimSearch(postal), search.normalizedKey == query else { return }
        let answer: GeocodeCache.Answer
        if let cached = try await cache.answer(for: query) {
            answer = cached
        } else {
            if let turn = try await pace.turn(for: job.id, now: clock.nowMillis) {
                throw JobPostponed(until: turn, reason: "waiting for the geocoder's next free second")
            }
            answer = try await lookup.answer(search)
            try await cache.store(answer, for: query, now: clock.nowMillis)
        }
        try await record(answer, on: id, query: query)
    }

    /// Address `id` if it still waits for its place: not deleted, no typed coordinates, not answered.
    private func waitingAddress(_ id: Int64) async throws -> AddressRecord? {
        let address = try await database.run { sql in
            try await sql.raw("SELECT * FROM monica_addresses WHERE id = \(bind: id)").first()?
                .record(AddressRecord.self)
        }
        guard let address, address.latitude == nil, address.longitude == nil, address.geocodedAt == nil else {
            return nil
        }
        return address
    }

    /// Stores the answer on the address, only if it still waits for `query`. Its `updated_at`
    /// moves, so its version (`ETag`) does and a client reading it again sees the change.
    private func record(_ answer: GeocodeCache.Answer, on id: Int64, query: String) async throws {
        let point: Coordinates? = if case .found(let point) = answer { point } else { nil }
        let now = clock.nowMillis
        try await database.run { sql in
            try await sql.raw(
                """
                UPDATE monica_addresses SET geocoded_latitude = \(bind: point?.latitude),
                    geocoded_longitude = \(bind: point?.longitude), geocoded_at = \(bind: now), updated_at = \(bind: now)
                WHERE id = \(bind: id) AND geocode_query = \(bind: query) AND latitude IS NULL
                """
            ).run()
        }
    }
}
