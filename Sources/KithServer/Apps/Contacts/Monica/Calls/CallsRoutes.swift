import Foundation
import Hummingbird
import KithCore

/// `/api/calls` and `/api/contacts/{id}/calls`.
struct CallsRoutes {
    static let createRules = [
        FieldRules("contact_id", .required, .integer), FieldRules("called_at", .required, .instant),
        FieldRules("content", .nullable, .string, .max(1_000_000)), FieldRules("contact_called", .nullable, .boolean),
        FieldRules("emotions", .nullable, .array),
    ]
    /// A call stays with the contact it was made with (Monica's update takes no contact).
    static let updateRules = createRules.filter { $0.name != "contact_id" }
    static let sortable: Set<String> = ["created_at", "updated_at", "called_at"]

    let repository: CallRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned(
            "calls", repository.owned, sortable: Self.sortable, present: Self.present,
            contactListMeta: { call in
                let counts = try await repository.yearlyCounts(account: call.accountID)
                return [
                    ("statistics", counts.isEmpty ? [] : .object(JSONObject(counts.map { ($0.year, .int($0.count)) })))
                ]
            },
            delete: { call, id in
                try await repository.delete(account: call.accountID, id: id, ifMatch: try call.ifMatch())
            }
        ) { call, id in try await save(call, id: id) }
    }

    static let present: OwnedPresenter<CallRecord> = { call, contact, presentation in
        CallPresenter.present(call, contact: contact(call.contactID), presentation)
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        if let id { try await repository.owned.checkExists(account: call.accountID, id: id, attribute: "call id") }
        let valid = try MonicaValidator.validate(
            try await call.input(), id == nil ? Self.createRules : Self.updateRules)
        // Kith keeps no emotions, so any emotion named is one that does not exist.
        if !(valid.array("emotions") ?? []).isEmpty { throw MonicaError.notFound }
        let input = CallInput(
            contactID: valid.int("contact_id"), calledAt: valid.instant("called_at") ?? call.now,
            content: valid.string("content"), contactCalled: valid.bool("contact_called") ?? false)
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return owned(saved, call, Self.present, status: id == nil ? .created : .ok)
    }
}
