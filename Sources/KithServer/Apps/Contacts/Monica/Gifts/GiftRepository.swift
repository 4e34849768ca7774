import Foundation

/// A gift's fields as a write gives them (a write gives them all).
struct GiftInput: Sendable {
    let contactID: Int64
    let recipientID: Int64?
    let name: String
    let status: String
    let comment: String?
    let url: String?
    let amount: Double?
    let date: String?
}

struct GiftRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<GiftRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates a gift (nil `id`) or changes gift `id` (if it is still a version `ifMatch` names).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: GiftInput, now: Int64) async throws
        -> WithContacts<GiftRecord>
    {
        try await owned.save(account: account, id: id, ifMatch: ifMatch, now: now) { storage, gifts in
            _ = try await storage.contacts.existing(input.contactID, attribute: "contact id")
            if let recipientID = input.recipientID {
                _ = try await storage.contacts.existing(recipientID, attribute: "recipient id")
            }
            if let id { _ = try await gifts.existing(id, attribute: "gift id") }
            return [
                "contact_id": .int(input.contactID), "name": .text(input.name), "status": .text(input.status),
                "comment": .text(input.comment), "url": .text(input.url), "amount": .double(input.amount),
                "date": .text(input.date), "recipient_id": .int(input.recipientID),
            ]
        }
    }
}
