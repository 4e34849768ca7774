import Foundation
import Hummingbird
import KithCore

/// `/api/notes` and `/api/contacts/{id}/notes`.
struct NotesRoutes {
    static let rules = [
        FieldRules("body", .required, .string, .max(100_000)), FieldRules("contact_id", .required, .integer),
        FieldRules("is_favorited", .nullable, .boolean),
    ]
    static let sortable: Set<String> = ["created_at", "updated_at", "favorited_at"]

    let repository: NoteRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned(
            "notes", repository.owned, sortable: Self.sortable, present: Self.present
        ) { call, id in try await save(call, id: id) }
    }

    static let present: OwnedPresenter<NoteRecord> = { note, contact, presentation in
        NotePresenter.present(note, contact: contact(note.contactID), presentation)
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let input = NoteInput(
            contactID: valid.int("contact_id") ?? 0, body: valid.string("body") ?? "",
            isFavorited: valid.bool("is_favorited") ?? false, favoriteGiven: valid.has("is_favorited"))
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return owned(saved, call, Self.present, status: id == nil ? .created : .ok)
    }
}
