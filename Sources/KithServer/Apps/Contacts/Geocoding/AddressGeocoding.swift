import Foundation
import KithCore
import SQLKit

/// What a write of an address does about its location, the same on every path that writes one
/// (`/api`, the pages through it, CardDAV, a vCard import): typed coordinates win and are kept as
/// typed; an address without them is located by `GeocodeJob` from its text, once per text.
struct AddressGeocoding: Sendable {
    /// Nil: geocoding is off, nothing is queued.
    let settings: GeocoderSettings?
    let ids: IdentifierSource
    let wake: JobWakeSignal

    static let jobKind = "contacts.geocode"

    /// `address` as it is to be stored: coordinates a client sends back unchanged from an
    /// address's geocoded ones (Monica's PUT replaces every field, so an app that read the address
    /// sends them back) are not typed ones, and are dropped.
    func typed(_ address: PostalAddress, current: AddressRecord?) -> PostalAddress {
        guard let current, current.latitude == nil, let latitude = address.latitude,
            let longitude = address.longitude, latitude == current.geocodedLatitude,
            longitude == current.geocodedLongitude
        else { return address }
        var address = address
        address.latitude = nil
        address.longitude = nil
        return address
    }

    /// The geocoding columns of `address` (already through `typed`), given what it was: typed
    /// coordinates or nothing to search clear them all; the same search as before keeps its
    /// answer; a new search clears the old answer and waits for `GeocodeJob`.
    func columns(_ address: PostalAddress, current: AddressRecord?) -> MonicaColumns {
        let search = settings == nil || address.latitude != nil ? nil : NominatimSearch(address)
        guard let query = search?.normalizedKey else { return Self.columns(query: nil, from: nil) }
        return Self.columns(query: query, from: current?.geocodeQuery == query ? current : nil)
    }

    private static func columns(query: String?, from kept: AddressRecord?) -> MonicaColumns {
        [
            "geocode_query": .text(query), "geocoded_latitude": .double(kept?.geocodedLatitude),
            "geocoded_longitude": .double(kept?.geocodedLongitude), "geocoded_at": .int(kept?.geocodedAt),
        ]
    }

    /// Queues the job that locates `address` when it waits for its place, in the write's own
    /// transaction, so an address waiting to be located always has a job (a second one for the
    /// same search finds it answered and does nothing). Call `wakeRunner` once it commits.
    func queueIfWaiting(_ address: AddressRecord, _ sql: any SQLDatabase, now: Int64) async throws {
        guard settings != nil, address.coordinatesSource == "locating" else { return }
        let id = address.id
        let job = try NewJob(
            kind: Self.jobKind, key: "\(Self.jobKind) \(id) \(ids.text())", payload: GeocodeJob.Payload(address: id),
            runAt: now, retry: GeocodeJob.retryPolicy)
        try await JobRepository.insert(job, id: ids.text(), now: now, sql: sql)
    }

    /// Starts the runner on what was queued, rather than at its next poll.
    func wakeRunner() { wake.signal() }
}
