import KithCore

enum ActivityTypePresenter {
    static func present(
        _ record: ActivityTypeRecord, category: ActivityTypeCategoryRecord?, _ presentation: MonicaPresentation
    ) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.derivedUUID)), ("object", "activityType"),
                    ("name", ActivityTypeDefaults.name(record.name, key: record.translationKey)),
                    ("location_type", .nullable(record.locationType)),
                    ("activity_type_category", category.map { presentCategory($0, presentation) } ?? .null),
                ] + presentation.stamps(record)))
    }

    static func presentCategory(_ record: ActivityTypeCategoryRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.derivedUUID)), ("object", "activityTypeCategory"),
                    ("name", ActivityTypeDefaults.name(record.name, key: record.translationKey)),
                ] + presentation.stamps(record)))
    }
}
