import Foundation
import Hummingbird
import KithCore

/// `/api/contactfields` (no index, as in Monica), `/api/contacts/{id}/contactfields`, `/api/contactfieldtypes`.
struct ContactFieldsRoutes {
    static let rules = [
        FieldRules("contact_id", .required, .integer), FieldRules("contact_field_type_id", .required, .integer),
        FieldRules("data", .required, .string, .max(255)), FieldRules("labels", .nullable, .array),
    ]
    static let typeRules = [
        FieldRules("name", .required, .string, .max(255)),
        FieldRules("fontawesome_icon", .nullable, .string, .max(255)),
        FieldRules("protocol", .nullable, .string, .max(255)), FieldRules("delible", .nullable, .boolean),
        FieldRules("type", .nullable, .string, .max(255)),
    ]

    let fields: ContactFieldRepository
    let types: ContactFieldTypeRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("contacts/{id}/contactfields") { call in
            let page = try call.page()
            let view = try await fields.page(account: call.accountID, ofContact: try call.id(), page)
            return PageEnvelope(
                items: Self.present(view, call.presentation), total: view.fields.total, request: page, path: call.indexURL
            ).response
        }
        routes.get("contactfields/{id}") { call in
            try Self.one(try await fields.find(account: call.accountID, id: try call.id()), call)
        }
        routes.post("contactfields") { call in try await save(call, id: nil) }
        routes.put("contactfields/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("contactfields", attribute: "contact field id", answerText: false) {
            try await fields.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }

        routes.index(
            "contactfieldtypes", load: { try await types.page(account: $0.accountID, $1) },
            present: ContactFieldTypePresenter.present)
        routes.show(
            "contactfieldtypes", load: { try await types.find(account: $0.accountID, id: $1) },
            present: ContactFieldTypePresenter.present)
        routes.post("contactfieldtypes") { call in try await saveType(call, id: nil) }
        routes.put("contactfieldtypes/{id}") { call in try await saveType(call, id: try call.id()) }
        routes.destroy("contactfieldtypes", attribute: nil, answerText: false) {
            try await types.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    static func present(_ view: ContactFieldsView, _ presentation: MonicaPresentation) -> [JSONTree] {
        view.fields.records.map { field in
            ContactFieldPresenter.present(
                field, type: view.types[field.contactFieldTypeID],
                contact: view.contacts.short(field.contactID, presentation), presentation)
        }
    }

    private static func one(_ view: ContactFieldsView, _ call: MonicaRequest, status: HTTPResponse.Status = .ok) throws
        -> Response
    {
        guard let item = present(view, call.presentation).first, let field = view.fields.records.first else {
            throw MonicaError.notFound
        }
        return MonicaResponse.data(item, status: status, tag: EntityTag(field))
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let input = ContactFieldInput(
            contactID: valid.int("contact_id") ?? 0, typeID: valid.int("contact_field_type_id") ?? 0,
            data: valid.string("data") ?? "")
        let saved = try await fields.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return try Self.one(saved, call, status: id == nil ? .created : .ok)
    }

    private func saveType(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.typeRules)
        let input = ContactFieldTypeInput(
            name: valid.string("name") ?? "", fontawesomeIcon: valid.string("fontawesome_icon"),
            protocol: valid.string("protocol"), type: valid.string("type"),
            delible: valid.has("delible") ? (valid.bool("delible") ?? true) : nil)
        let saved = try await types.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return MonicaResponse.data(
            ContactFieldTypePresenter.present(saved, call.presentation), status: id == nil ? .created : .ok,
            tag: EntityTag(saved))
    }
}
