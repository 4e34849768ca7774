import KithCore

enum TagPresenter {
    static func present(_ record: TagRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("object", "tag"), ("name", .string(record.name)),
                    ("name_slug", .string(record.nameSlug)),
                ] + presentation.stamps(record)))
    }
}
