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

    /// Shows photo `photoID` (one of the gift's contact's photos) with gift `giftID`; both must be
    /// the account's (else 404). Showing it twice shows it once.
    func showPhoto(account: Int64, giftID: Int64, photoID: Int64) async throws -> WithContacts<GiftRecord> {
        try await writing(account) { storage in
            let gift = try await storage.table(GiftRecord.self).require(giftID)
            let photo = try await storage.table(PhotoRecord.self).require(photoID)
            guard photo.contactID == gift.contactID else {
                throw MonicaError.invalid("The photo must be one of the photos of the gift's contact.")
            }
            try await storage.sql.raw(
                """
                INSERT INTO monica_gift_photos (gift_id, photo_id, account_id)
                VALUES (\(bind: gift.id), \(bind: photo.id), \(bind: storage.account)) ON CONFLICT DO NOTHING
                """
            ).run()
            return try await storage.table(GiftRecord.self).namingContacts(gift)
        }
    }

    /// The photos each of `gifts` shows, by gift, oldest first.
    func photos(account: Int64, ofGifts gifts: [Int64]) async throws -> [Int64: [PhotoRecord]] {
        guard !gifts.isEmpty else { return [:] }
        return try await reading(account) { storage in try await Self.photos(storage, ofGifts: gifts) }
    }

    /// The photos of `gifts`, in a read already open.
    static func photos(_ storage: MonicaStorage, ofGifts gifts: [Int64]) async throws -> [Int64: [PhotoRecord]] {
        guard !gifts.isEmpty else { return [:] }
        var photos: [Int64: [PhotoRecord]] = [:]
        let rows = try await storage.sql.raw(
            """
            SELECT gift_id, photo_id FROM monica_gift_photos
            WHERE account_id = \(bind: storage.account) AND gift_id \(in: gifts) ORDER BY photo_id
            """
        ).all()
        let links = try rows.map {
            (try $0.decode(column: "gift_id", as: Int64.self), try $0.decode(column: "photo_id", as: Int64.self))
        }
        guard !links.isEmpty else { return [:] }
        let byID = try await storage.table(PhotoRecord.self).byID(links.map(\.1))
        for (gift, photo) in links { if let record = byID[photo] { photos[gift, default: []].append(record) } }
        return photos
    }
}
