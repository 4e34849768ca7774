import Foundation
import KithCore

struct PlaceRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    func page(account: Int64, _ page: PageRequest) async throws -> RecordPage<PlaceRecord> {
        try await reading(account) { storage in try await storage.table(PlaceRecord.self).page(page) }
    }

    func find(account: Int64, id: Int64) async throws -> PlaceRecord {
        try await reading(account) { storage in try await storage.table(PlaceRecord.self).require(id) }
    }

    /// Creates a place (nil `id`) or replaces every field of place `id` (if it is still a version
    /// `ifMatch` names): Monica's update resets what is not sent. A place is an address without a
    /// name: `place`'s label is not kept, its country is an ISO 3166 code, already checked. Places
    /// are not located from their text (only a contact's addresses are).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ place: PostalAddress, now: Int64) async throws
        -> PlaceRecord
    {
        try await writing(account) { [ids] storage in
            if let id { try await storage.check(ifMatch, PlaceRecord.self, id: id) }
            let places = storage.table(PlaceRecord.self)
            if let id { _ = try await places.existing(id, attribute: "place id") }
            let values: MonicaColumns = [
                "street": .text(place.street), "city": .text(place.city), "province": .text(place.province),
                "postal_code": .text(place.postalCode), "country": .text(place.countryCode),
                "latitude": .double(place.latitude), "longitude": .double(place.longitude),
            ]
            return try await places.save(id, values, now: now, ids: ids)
        }
    }

    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, PlaceRecord.self, id: id)
            let places = storage.table(PlaceRecord.self)
            _ = try await places.existing(id, attribute: "place id")
            try await places.delete(id)
        }
    }
}
