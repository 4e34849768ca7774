import Foundation
import Hummingbird
import KithCore

/// `/api/gifts` and `/api/contacts/{id}/gifts`.
struct GiftsRoutes {
    static let rules = [
        FieldRules("contact_id", .required, .integer), FieldRules("name", .required, .string, .max(255)),
        FieldRules("status", .required, .oneOf(["idea", "offered", "received"])),
        FieldRules("comment", .nullable, .string, .max(1_000_000)),
        // Kith's: a link the pages can open, and a value no one pays less than nothing for.
        FieldRules("url", .nullable, .string, .max(1_000_000), .webLink),
        FieldRules("amount", .nullable, .numeric, .atLeast(0), .between(0, 1_000_000_000_000)),
        FieldRules("date", .nullable, .dateYMD), FieldRules("recipient_id", .nullable, .integer),
    ]

    let repository: GiftRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned(
            "gifts", repository.owned, deleteAttribute: "gift id", answerTextOnDelete: true,
            present: Self.presenter(photos: [:]),
            presenting: { storage, gifts in
                Self.presenter(photos: try await GiftRepository.photos(storage, ofGifts: gifts.map(\.id)))
            }
        ) { call, id in try await save(call, id: id) }
        routes.put("gifts/{id}/photo/{photo}") { call in
            let gift = try await repository.showPhoto(
                account: call.accountID, giftID: try call.id(), photoID: try call.id("photo"))
            return owned(gift, call, try await presenter(call, [gift.value]))
        }
    }

    /// Gifts as they show after a write, with their photos (read after the write).
    private func presenter(_ call: MonicaRequest, _ gifts: [GiftRecord]) async throws -> OwnedPresenter<GiftRecord> {
        Self.presenter(photos: try await repository.photos(account: call.accountID, ofGifts: gifts.map(\.id)))
    }

    static func presenter(photos: [Int64: [PhotoRecord]]) -> OwnedPresenter<GiftRecord> {
        { gift, contact, presentation in
            GiftPresenter.present(
                gift, contact: contact(gift.contactID), recipient: contact(gift.recipientID),
                photos: photos[gift.id] ?? [], presentation)
        }
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        // As Monica: an unknown gift is reported before the input is.
        if let id { try await repository.owned.checkExists(account: call.accountID, id: id, attribute: "gift id") }
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let input = GiftInput(
            contactID: valid.int("contact_id") ?? 0, recipientID: valid.int("recipient_id"),
            name: valid.string("name") ?? "",
            status: valid.string("status") ?? "", comment: valid.string("comment"), url: valid.string("url"),
            amount: valid.double("amount"), date: valid.date("date"))
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return owned(saved, call, try await presenter(call, [saved.value]), status: id == nil ? .created : .ok)
    }
}
