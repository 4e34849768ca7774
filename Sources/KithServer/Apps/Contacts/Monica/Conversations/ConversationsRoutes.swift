import Foundation
import Hummingbird
import KithCore

/// `/api/conversations` and `/api/contacts/{id}/conversations`; a conversation's messages are
/// `MessagesRoutes`'.
struct ConversationsRoutes {
    static let createRules = [
        FieldRules("happened_at", .required, .instant), FieldRules("contact_id", .required, .integer),
        FieldRules("contact_field_type_id", .required, .integer),
    ]
    /// A conversation stays with its contact (Monica's update takes none).
    static let updateRules = createRules.filter { $0.name != "contact_id" }

    let repository: ConversationRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("conversations") { call in try await list(call, ofContact: nil) }
        routes.get("contacts/{id}/conversations") { call in try await list(call, ofContact: try call.id()) }
        routes.get("conversations/{id}") { call in
            try Self.one(try await repository.find(account: call.accountID, id: try call.id()), call)
        }
        routes.post("conversations") { call in
            let valid = try MonicaValidator.validate(try await call.input(), Self.createRules)
            let saved = try await repository.create(
                account: call.accountID, contactID: valid.int("contact_id") ?? 0, Self.input(valid, call),
                now: call.now)
            return try Self.one(saved, call, status: .created)
        }
        routes.put("conversations/{id}") { call in
            let id = try call.id()
            try await repository.owned.checkExists(account: call.accountID, id: id, attribute: "conversation id")
            let valid = try MonicaValidator.validate(try await call.input(), Self.updateRules)
            let saved = try await repository.update(
                account: call.accountID, id: id, ifMatch: try call.ifMatch(), Self.input(valid, call), now: call.now)
            return try Self.one(saved, call)
        }
        routes.destroy("conversations", attribute: "conversation id", answerText: false) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
        MessagesRoutes(repository: repository).addRoutes(to: routes)
    }

    private func list(_ call: MonicaRequest, ofContact contactID: Int64?) async throws -> Response {
        let page = try call.page()
        let view = try await repository.page(account: call.accountID, ofContact: contactID, page)
        return PageEnvelope(
            items: ConversationPresenter.present(view, call.presentation), total: view.conversations.total,
            request: page, path: call.indexURL
        ).response
    }

    private static func input(_ valid: ValidInput, _ call: MonicaRequest) -> ConversationInput {
        ConversationInput(
            contactFieldTypeID: valid.int("contact_field_type_id") ?? 0,
            happenedAt: valid.instant("happened_at") ?? call.now)
    }

    /// The one conversation of `view` as `{"data": …}`; with its version as `ETag` unless the
    /// request's target was one of its messages, whose version that is not.
    static func one(
        _ view: ConversationsView, _ call: MonicaRequest, status: HTTPResponse.Status = .ok, tagged: Bool = true
    ) throws -> Response {
        guard let conversation = view.conversations.records.first,
            let item = ConversationPresenter.present(view, call.presentation).first
        else { throw MonicaError.notFound }
        return MonicaResponse.data(item, status: status, tag: tagged ? EntityTag(conversation) : nil)
    }
}
