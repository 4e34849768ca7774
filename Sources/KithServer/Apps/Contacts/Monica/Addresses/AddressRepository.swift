import Foundation
import KithCore

struct AddressRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource
    let geocoding: AddressGeocoding

    var owned: ContactOwnedRepository<AddressRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates an address (nil `id`) or replaces every field of address `id` (if it is still a
    /// version `ifMatch` names). Every field of `address` is written: Monica's update replaces them
    /// all. Its country is an ISO 3166 code, already checked. Without typed coordinates it is
    /// located from its text (`AddressGeocoding`), the job queued in the same transaction.
    func save(
        account: Int64, id: Int64?, ifMatch: IfMatch?, contactID: Int64, _ address: PostalAddress, now: Int64
    ) async throws -> WithContacts<AddressRecord> {
        let saved = try await owned.save(account: account, id: id, ifMatch: ifMatch, now: now) {
            [geocoding] storage, addresses in
            let current = try await id.asyncMap { try await addresses.existing($0, attribute: "address id") }
            _ = try await storage.contacts.existing(contactID, attribute: "contact id")
            // Monica finds the address by its contact too: naming another contact is 404.
            if let current, current.contactID != contactID { throw MonicaError.notFound }
            let stored = geocoding.typed(address, current: current)
            let columns: MonicaColumns = [
                "contact_id": .int(contactID), "name": .text(stored.label), "street": .text(stored.street),
                "city": .text(stored.city), "province": .text(stored.province),
                "postal_code": .text(stored.postalCode), "country": .text(stored.countryCode),
                "latitude": .double(stored.latitude), "longitude": .double(stored.longitude),
            ]
            return columns.merging(geocoding.columns(stored, current: current)) { typed, _ in typed }
        } then: { [geocoding] storage, saved in
            try await geocoding.queueIfWaiting(saved, storage.sql, now: now)
        }
        geocoding.wakeRunner()
        return saved
    }
}
