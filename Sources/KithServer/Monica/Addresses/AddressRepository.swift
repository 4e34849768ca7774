import Foundation
import KithCore

/// An address's fields as a write gives them: every field, since Monica's update replaces them all.
struct AddressInput: Sendable {
    let contactID: Int64
    let name: String?
    let street: String?
    let city: String?
    let province: String?
    let postalCode: String?
    /// An ISO 3166 code, already checked.
    let country: String?
    let latitude: Double?
    let longitude: Double?

    var isEmpty: Bool {
        [name, street, city, province, postalCode, country].allSatisfy { $0 == nil } && latitude == nil
            && longitude == nil
    }
}

struct AddressRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<AddressRecord> { ContactOwnedRepository(database: database) }

    /// Creates an address (nil `id`) or replaces every field of address `id`.
    func save(account: Int64, id: Int64?, _ input: AddressInput, now: Int64) async throws
        -> WithContacts<AddressRecord>
    {
        try await writing(account) { storage in
            let addresses = storage.table(AddressRecord.self)
            let current = try await id.asyncMap { try await addresses.existing($0, attribute: "address id") }
            _ = try await storage.contacts.existing(input.contactID, attribute: "contact id")
            // Monica finds the address by its contact too: naming another contact is 404.
            if let current, current.contactID != input.contactID { throw MonicaError.notFound }
            var values: MonicaColumns = [
                "contact_id": .int(input.contactID), "name": .text(input.name), "street": .text(input.street),
                "city": .text(input.city), "province": .text(input.province), "postal_code": .text(input.postalCode),
                "country": .text(input.country), "latitude": .double(input.latitude),
                "longitude": .double(input.longitude),
            ]
            let saved: AddressRecord
            if let id {
                saved = try await addresses.update(id, values, now: now)
            } else {
                values["uuid"] = .text(ids.text())
                saved = try await addresses.insert(values, now: now)
            }
            return try await addresses.namingContacts(saved)
        }
    }
}
