import KithCore

enum ConversationPresenter {
    /// Every conversation of `view`, in its order.
    static func present(_ view: ConversationsView, _ presentation: MonicaPresentation) -> [JSONTree] {
        view.conversations.records.map { conversation in
            present(
                conversation, messages: view.messages[conversation.id] ?? [],
                type: view.types[conversation.contactFieldTypeID], contact: { view.contacts.short($0, presentation) },
                presentation)
        }
    }

    /// A conversation with its messages, as written; `contact` gives a contact's short form.
    static func present(
        _ record: ConversationRecord, messages: [MessageRecord], type: ContactFieldTypeRecord?,
        contact: (Int64) -> JSONTree?, _ presentation: MonicaPresentation
    ) -> JSONTree {
        let shown: [JSONTree] = messages.map { message($0, contact: contact($0.contactID), presentation) }
        let fieldType: JSONTree = type.map { ContactFieldTypePresenter.present($0, presentation) } ?? .null
        return .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "conversation"),
                    ("happened_at", .string(MonicaTimestamp.format(millis: record.happenedAt))),
                    ("messages", .array(shown)), ("contact_field_type", fieldType),
                    ("url", .string(presentation.url("conversations/\(record.id)"))),
                ] + presentation.stamps(record, contact: contact(record.contactID))))
    }

    /// A message names its conversation between its contact and its times, where Monica puts it.
    static func message(_ record: MessageRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject([
                ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "message"),
                ("content", .string(record.content)),
                ("written_at", .string(MonicaTimestamp.format(millis: record.writtenAt))),
                ("written_by_me", .bool(record.writtenByMe)), ("account", ["id": .int(presentation.accountID)]),
                ("contact", contact ?? .null), ("conversation", ["id": .int(record.conversationID)]),
                ("created_at", .nullable(MonicaTimestamp.format(millis: record.createdAt))),
                ("updated_at", .nullable(MonicaTimestamp.format(millis: record.updatedAt))),
            ]))
    }
}
