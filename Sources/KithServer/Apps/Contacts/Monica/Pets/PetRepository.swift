import Foundation

/// A pet's fields as a write gives them (a write gives them all; an update may name another
/// contact, and the pet moves to it, as in Monica).
struct PetInput: Sendable {
    let contactID: Int64
    let petCategoryID: Int64
    let name: String?
}

struct PetRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<PetRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates a pet (nil `id`) or changes pet `id` (if it is still a version `ifMatch` names);
    /// its contact must be the account's (else 404: Monica looks the contact up in the account,
    /// with no `exists` rule). The category was checked with the input: the list is fixed.
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: PetInput, now: Int64) async throws
        -> WithContacts<PetRecord>
    {
        try await owned.save(
            account: account, id: id, ifMatch: ifMatch, now: now, contact: input.contactID,
            ["pet_category_id": .int(input.petCategoryID), "name": .text(input.name)])
    }
}
