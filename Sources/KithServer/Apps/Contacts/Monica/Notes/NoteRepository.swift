import Foundation

/// A note's fields as a write gives them.
struct NoteInput: Sendable {
    let contactID: Int64
    let body: String
    let isFavorited: Bool
    /// Whether the write said anything about favouring (an update leaves it as it was otherwise).
    let favoriteGiven: Bool
}

struct NoteRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<NoteRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates a note (nil `id`) or changes note `id` (if it is still a version `ifMatch` names);
    /// its contact must be the account's (else 404).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: NoteInput, now: Int64) async throws
        -> WithContacts<NoteRecord>
    {
        var values: MonicaColumns = [
            "body": .text(input.body), "favorited_at": input.isFavorited ? .int(now) : .null,
        ]
        if input.favoriteGiven || id == nil { values["is_favorited"] = .bool(input.isFavorited) }
        return try await owned.save(
            account: account, id: id, ifMatch: ifMatch, now: now, contact: input.contactID, values)
    }
}
