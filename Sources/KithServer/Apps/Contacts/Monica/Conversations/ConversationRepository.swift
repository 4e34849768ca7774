import Foundation
import SQLKit

/// A conversation's fields as a write gives them (its contact is given on create only).
struct ConversationInput: Sendable {
    let contactFieldTypeID: Int64
    let happenedAt: Int64
}

/// A message's fields as a write gives them.
struct MessageInput: Sendable {
    let content: String
    let writtenAt: Int64
    let writtenByMe: Bool
}

/// Conversations as their answers show them: each with its messages in the order they were
/// written, its contact field type and its contact.
struct ConversationsView: Sendable {
    var conversations: RecordPage<ConversationRecord>
    var messages: [Int64: [MessageRecord]]
    var types: [Int64: ContactFieldTypeRecord]
    var contacts: WithContacts<Void>
}

struct ConversationRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<ConversationRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// A page of the account's conversations, or of one of its contacts' (another account's contact is 404).
    func page(account: Int64, ofContact contactID: Int64?, _ page: PageRequest) async throws -> ConversationsView {
        try await reading(account) { storage in
            if let contactID { _ = try await storage.contacts.require(contactID) }
            let found = try await storage.table(ConversationRecord.self).page(
                page, filter: contactID.map { equals("contact_id", $0) })
            return try await Self.view(found, storage)
        }
    }

    func find(account: Int64, id: Int64) async throws -> ConversationsView {
        try await reading(account) { storage in
            try await Self.view(one: try await storage.table(ConversationRecord.self).require(id), storage)
        }
    }

    /// Creates a conversation with contact `contactID` over one of the account's contact field
    /// types: a contact or type nobody has is Monica's validation error, another account's is 404.
    func create(account: Int64, contactID: Int64, _ input: ConversationInput, now: Int64) async throws
        -> ConversationsView
    {
        try await writing(account) { [ids] storage in
            _ = try await storage.contacts.existing(contactID, attribute: "contact id")
            _ = try await storage.table(ContactFieldTypeRecord.self).existing(
                input.contactFieldTypeID, attribute: "contact field type id")
            var values = Self.columns(input)
            values["contact_id"] = .int(contactID)
            let saved = try await storage.table(ConversationRecord.self).save(nil, values, now: now, ids: ids)
            return try await Self.view(one: saved, storage)
        }
    }

    /// Changes conversation `id` (if it is still a version `ifMatch` names). Monica's update looks
    /// the type up among the account's only, with no `exists` rule: any other type is 404.
    func update(account: Int64, id: Int64, ifMatch: IfMatch?, _ input: ConversationInput, now: Int64) async throws
        -> ConversationsView
    {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ConversationRecord.self, id: id)
            let conversations = storage.table(ConversationRecord.self)
            _ = try await conversations.existing(id, attribute: "conversation id")
            _ = try await storage.table(ContactFieldTypeRecord.self).require(input.contactFieldTypeID)
            let saved = try await conversations.update(id, Self.columns(input), now: now)
            return try await Self.view(one: saved, storage)
        }
    }

    /// Deletes conversation `id` and, by their foreign key, its messages.
    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await owned.delete(account: account, id: id, ifMatch: ifMatch, attribute: "conversation id")
    }

    /// Conversation `conversationID`, and message `messageID` in it when one is named, or 404:
    /// Monica looks for them before it reads a message's input.
    func require(account: Int64, conversationID: Int64, messageID: Int64?) async throws {
        try await reading(account) { storage in
            let conversation = try await storage.table(ConversationRecord.self).require(conversationID)
            if let messageID { _ = try await Self.message(messageID, of: conversation, storage) }
        }
    }

    /// Adds a message to conversation `conversationID`; it belongs to the conversation's contact.
    /// The conversation comes back with all its messages.
    func addMessage(account: Int64, conversationID: Int64, _ input: MessageInput, now: Int64) async throws
        -> ConversationsView
    {
        try await writing(account) { [ids] storage in
            let conversation = try await storage.table(ConversationRecord.self).require(conversationID)
            var values = Self.columns(input)
            values["contact_id"] = .int(conversation.contactID)
            values["conversation_id"] = .int(conversation.id)
            _ = try await storage.table(MessageRecord.self).save(nil, values, now: now, ids: ids)
            return try await Self.view(one: conversation, storage)
        }
    }

    /// Changes message `messageID` of conversation `conversationID` (if it is still a version
    /// `ifMatch` names); a message of another conversation is 404. The conversation comes back.
    func updateMessage(
        account: Int64, conversationID: Int64, messageID: Int64, ifMatch: IfMatch?, _ input: MessageInput, now: Int64
    ) async throws -> ConversationsView {
        try await writing(account) { storage in
            let conversation = try await storage.table(ConversationRecord.self).require(conversationID)
            _ = try await Self.message(messageID, of: conversation, storage)
            try await storage.check(ifMatch, MessageRecord.self, id: messageID)
            try await storage.table(MessageRecord.self).update(messageID, Self.columns(input), now: now)
            return try await Self.view(one: conversation, storage)
        }
    }

    /// Deletes message `messageID` of conversation `conversationID` (if it is still a version
    /// `ifMatch` names); a message of another conversation is 404.
    func deleteMessage(account: Int64, conversationID: Int64, messageID: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            let conversation = try await storage.table(ConversationRecord.self).require(conversationID)
            _ = try await Self.message(messageID, of: conversation, storage)
            try await storage.check(ifMatch, MessageRecord.self, id: messageID)
            try await storage.table(MessageRecord.self).delete(messageID)
        }
    }

    private static func columns(_ input: ConversationInput) -> MonicaColumns {
        ["happened_at": .int(input.happenedAt), "contact_field_type_id": .int(input.contactFieldTypeID)]
    }

    private static func columns(_ input: MessageInput) -> MonicaColumns {
        [
            "content": .text(input.content), "written_at": .int(input.writtenAt),
            "written_by_me": .bool(input.writtenByMe),
        ]
    }

    /// Message `id` if it is one of `conversation`'s, else 404.
    private static func message(_ id: Int64, of conversation: ConversationRecord, _ storage: MonicaStorage)
        async throws -> MessageRecord
    {
        guard let message = try await storage.table(MessageRecord.self).find(id),
            message.conversationID == conversation.id
        else { throw MonicaError.notFound }
        return message
    }

    private static func view(one conversation: ConversationRecord, _ storage: MonicaStorage) async throws
        -> ConversationsView
    {
        try await view(RecordPage(records: [conversation], total: 1), storage)
    }

    private static func view(_ found: RecordPage<ConversationRecord>, _ storage: MonicaStorage) async throws
        -> ConversationsView
    {
        let messages = try await storage.table(MessageRecord.self).all(
            where: "conversation_id", in: found.records.map(\.id))
        let ordered = messages.sorted { ($0.writtenAt, $0.id) < ($1.writtenAt, $1.id) }
        let types = try await storage.table(ContactFieldTypeRecord.self).byID(found.records.map(\.contactFieldTypeID))
        let contacts = try await storage.details.summaries(found.records.map(\.contactID) + messages.map(\.contactID))
        return ConversationsView(
            conversations: found, messages: Dictionary(grouping: ordered, by: \.conversationID), types: types,
            contacts: WithContacts(value: (), contacts: contacts))
    }
}
