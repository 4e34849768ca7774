import KithCore

enum NotePresenter {
    static func present(_ record: NoteRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "note"), ("body", .string(record.body)),
                    ("is_favorited", .bool(record.isFavorited)),
                    ("favorited_at", .nullable(MonicaTimestamp.format(millis: record.favoritedAt))),
                    ("url", .string(presentation.url("notes/\(record.id)"))),
                ] + presentation.stamps(record, contact: contact)))
    }
}
