import Foundation
import Hummingbird
import KithCore

/// `/api/pets`, `/api/contacts/{id}/pets`, and Kith's `/api/petcategories`.
struct PetsRoutes {
    static let rules = [
        // Monica's `exists:pet_categories,id`: a category not on the list is "The selected pet
        // category id is invalid.", with the other fields' messages.
        FieldRules("pet_category_id", .required, .integer, .oneOf(PetCategories.all.map { String($0.id) })),
        FieldRules("contact_id", .required, .integer), FieldRules("name", .nullable, .string, .max(255)),
    ]

    let repository: PetRepository

    func addRoutes(to routes: MonicaRoutes) {
        // Kith's: Monica's API has no route for its categories (only its web pages' session route
        // `/petcategories`), so a client offering the choice would have to know the ids by heart.
        // Each is the `pet_category` a pet shows, all of them, unpaginated.
        routes.get("petcategories") { _ in
            MonicaResponse.make(["data": .array(PetCategories.all.map(PetPresenter.category))])
        }
        routes.contactOwned("pets", repository.owned, present: Self.present) { call, id in
            try await save(call, id: id)
        }
    }

    static let present: OwnedPresenter<PetRecord> = { pet, contact, presentation in
        PetPresenter.present(pet, contact: contact(pet.contactID), presentation)
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        // As Monica: a pet that is not the account's is 404 before the input is looked at.
        if let id { _ = try await repository.owned.find(account: call.accountID, id: id) }
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let input = PetInput(
            contactID: valid.int("contact_id") ?? 0, petCategoryID: valid.int("pet_category_id") ?? 0,
            name: valid.string("name"))
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return owned(saved, call, Self.present, status: id == nil ? .created : .ok)
    }
}
