import KithCore

enum CallPresenter {
    static func present(_ record: CallRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "call"),
                    ("called_at", .string(MonicaTimestamp.format(millis: record.calledAt))),
                    ("content", .nullable(record.content)), ("contact_called", .bool(record.contactCalled)),
                    // Kith keeps no emotions.
                    ("emotions", []), ("url", .string(presentation.url("calls/\(record.id)"))),
                ] + presentation.stamps(record, contact: contact)))
    }
}
