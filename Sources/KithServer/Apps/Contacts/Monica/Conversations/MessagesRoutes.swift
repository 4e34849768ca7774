import Foundation
import Hummingbird
import KithCore

/// `/api/conversations/{id}/messages`: adding, changing and deleting a conversation's messages.
/// As Monica, a write answers with the whole conversation (200, also on create); without an
/// `ETag`, since the request's target is the message, and `If-Match` names the message's version.
struct MessagesRoutes {
    static let rules = [
        FieldRules("written_at", .required, .instant), FieldRules("written_by_me", .required, .boolean),
        FieldRules("content", .required, .string),
    ]

    let repository: ConversationRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.post("conversations/{id}/messages") { call in
            let conversation = try call.id()
            try await repository.require(account: call.accountID, conversationID: conversation, messageID: nil)
            let input = try await Self.input(call)
            let saved = try await repository.addMessage(
                account: call.accountID, conversationID: conversation, input, now: call.now)
            return try ConversationsRoutes.one(saved, call, tagged: false)
        }
        routes.put("conversations/{id}/messages/{message}") { call in
            let conversation = try call.id()
            let message = try call.id("message")
            try await repository.require(
                account: call.accountID, conversationID: conversation, messageID: message)
            let input = try await Self.input(call)
            let saved = try await repository.updateMessage(
                account: call.accountID, conversationID: conversation, messageID: message, ifMatch: try call.ifMatch(),
                input, now: call.now)
            return try ConversationsRoutes.one(saved, call, tagged: false)
        }
        routes.delete("conversations/{id}/messages/{message}") { call in
            let conversation = try call.id()
            let message = try call.id("message")
            try await repository.deleteMessage(
                account: call.accountID, conversationID: conversation, messageID: message, ifMatch: try call.ifMatch())
            return MonicaResponse.deleted(.int(message))
        }
    }

    private static func input(_ call: MonicaRequest) async throws -> MessageInput {
        let valid = try MonicaValidator.validate(try await call.input(), rules)
        return MessageInput(
            content: valid.string("content") ?? "", writtenAt: valid.instant("written_at") ?? call.now,
            writtenByMe: valid.bool("written_by_me") ?? false)
    }
}
