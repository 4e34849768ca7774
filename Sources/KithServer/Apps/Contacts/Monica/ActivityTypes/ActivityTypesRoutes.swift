import Foundation
import Hummingbird
import KithCore

/// `/api/activitytypes` and `/api/activitytypecategories`. Monica answers a new type (and
/// category) with 200, not 201.
struct ActivityTypesRoutes {
    static let typeRules = [
        FieldRules("activity_type_category_id", .required, .integer), FieldRules("name", .nullable, .string, .max(255)),
        FieldRules("translation_key", .nullable, .string, .max(255)),
    ]
    static let categoryRules = [
        FieldRules("name", .nullable, .string, .max(255)), FieldRules("translation_key", .nullable, .string, .max(255)),
    ]

    let repository: ActivityTypeRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("activitytypes") { call in
            let page = try call.page()
            let found = try await repository.page(account: call.accountID, page)
            let items = found.types.records.map {
                ActivityTypePresenter.present($0, category: found.categories[$0.activityTypeCategoryID], call.presentation)
            }
            return PageEnvelope(items: items, total: found.types.total, request: page, path: call.indexURL).response
        }
        routes.get("activitytypes/{id}") { call in
            let found = try await repository.find(account: call.accountID, id: try call.id())
            return MonicaResponse.data(
                ActivityTypePresenter.present(found.type, category: found.category, call.presentation),
                tag: EntityTag(found.type))
        }
        routes.post("activitytypes") { call in try await saveType(call, id: nil) }
        routes.put("activitytypes/{id}") { call in try await saveType(call, id: try call.id()) }
        routes.destroy("activitytypes", attribute: "activity type id", answerText: false) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }

        routes.index(
            "activitytypecategories", load: { try await repository.categoryPage(account: $0.accountID, $1) },
            present: ActivityTypePresenter.presentCategory)
        routes.show(
            "activitytypecategories", load: { try await repository.category(account: $0.accountID, id: $1) },
            present: ActivityTypePresenter.presentCategory)
        routes.post("activitytypecategories") { call in try await saveCategory(call, id: nil) }
        routes.put("activitytypecategories/{id}") { call in try await saveCategory(call, id: try call.id()) }
        routes.destroy("activitytypecategories", attribute: "activity type category id", answerText: false) {
            try await repository.deleteCategory(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    private func saveType(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.typeRules)
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(),
            categoryID: valid.int("activity_type_category_id") ?? 0, name: valid.string("name"),
            translationKey: valid.string("translation_key"), now: call.now)
        return MonicaResponse.data(
            ActivityTypePresenter.present(saved.type, category: saved.category, call.presentation),
            tag: EntityTag(saved.type))
    }

    private func saveCategory(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        if let id { try await repository.checkCategoryExists(account: call.accountID, id: id) }
        let valid = try MonicaValidator.validate(try await call.input(), Self.categoryRules)
        let saved = try await repository.saveCategory(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), name: valid.string("name"),
            translationKey: valid.string("translation_key"), now: call.now)
        return MonicaResponse.data(
            ActivityTypePresenter.presentCategory(saved, call.presentation), tag: EntityTag(saved))
    }
}
