import Foundation
import Hummingbird
import KithCore

/// `/api/tags`, `/api/tags/{id}/contacts` and a contact's `setTags`, `unsetTag`, `unsetTags`.
struct TagsRoutes {
    static let rules = [FieldRules("name", .required, .string, .max(255))]
    private static let tagsRule = [FieldRules("tags", .required, .array)]

    let repository: TagRepository
    let contacts: ContactRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.index("tags", load: { try await repository.page(account: $0.accountID, $1) }, present: TagPresenter.present)
        routes.show("tags", load: { try await repository.find(account: $0.accountID, id: $1) }, present: TagPresenter.present)
        routes.post("tags") { call in try await save(call, id: nil) }
        routes.put("tags/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("tags", attribute: nil, answerText: true) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
        routes.get("tags/{id}/contacts") { call in
            let page = try call.page()
            let found = try await repository.contacts(account: call.accountID, tagID: try call.id(), page)
            return PageEnvelope(
                items: found.records.map { ContactPresenter.full($0, call.presentation) }, total: found.total,
                request: page, path: call.indexURL
            ).response
        }
        routes.post("contacts/{id}/setTags") { call in try await setTags(call) }
        routes.post("contacts/{id}/unsetTag") { call in try await unsetTag(call) }
        routes.post("contacts/{id}/unsetTags") { call in
            let contactID = try call.id()
            try await repository.detach(account: call.accountID, tagIDs: nil, from: contactID)
            return try await ContactsRoutes.show(contacts, call, id: contactID)
        }
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let tag = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), name: valid.string("name") ?? "",
            now: call.now)
        return MonicaResponse.data(
            TagPresenter.present(tag, call.presentation), status: id == nil ? .created : .ok, tag: EntityTag(tag))
    }

    /// Attaches tags by name, creating the ones the account does not have yet.
    private func setTags(_ call: MonicaRequest) async throws -> Response {
        let contactID = try call.id()
        let raw = try await call.input()
        // As Monica: another account's contact is 404 before the input is looked at.
        try await contacts.requireExists(account: call.accountID, id: contactID)
        let valid = try MonicaValidator.validate(raw, Self.tagsRule)
        let names = try (valid.array("tags") ?? []).compactMap { item -> String? in
            if item.isNull || item == .string("0") || item == .int(0) { return nil }
            guard let name = ValidInput.text(item) else { throw MonicaError.invalid("The name must be a string.") }
            guard name.unicodeScalars.count <= 255 else {
                throw MonicaError.invalid("The name must not be greater than 255 characters.")
            }
            return name
        }
        try await repository.attach(account: call.accountID, names: names, to: contactID, now: call.now)
        return try await ContactsRoutes.show(contacts, call, id: contactID)
    }

    /// Detaches the listed tag ids; every one must be the caller's, or nothing changes.
    private func unsetTag(_ call: MonicaRequest) async throws -> Response {
        let contactID = try call.id()
        let raw = try await call.input()
        try await contacts.requireExists(account: call.accountID, id: contactID)
        let valid = try MonicaValidator.validate(raw, Self.tagsRule)
        let ids = try (valid.array("tags") ?? []).compactMap { item -> Int64? in
            if item.isNull || item == .string("0") || item == .int(0) { return nil }
            guard let id = ValidInput.integer(item) else { throw MonicaError.invalid("The tag id must be an integer.") }
            return id
        }
        try await repository.detach(account: call.accountID, tagIDs: ids, from: contactID)
        return try await ContactsRoutes.show(contacts, call, id: contactID)
    }
}
