import KithCore

/// An activity with its type (and the type's category) and its attendees.
enum ActivityPresenter {
    struct Related: Sendable {
        var type: ActivityTypeRecord?
        var category: ActivityTypeCategoryRecord?
        var attendees: [ContactSummary]
    }

    static func present(_ record: ActivityRecord, _ related: Related, _ presentation: MonicaPresentation) -> JSONTree {
        let people = related.attendees.map { ContactPresenter.short($0, presentation) }
        return .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "activity"),
                    ("summary", .string(record.summary)), ("description", .nullable(record.description)),
                    ("happened_at", .string(record.happenedAt)),
                    (
                        "activity_type",
                        related.type.map { ActivityTypePresenter.present($0, category: related.category, presentation) }
                            ?? .null
                    ),
                    ("attendees", ["total": .int(Int64(people.count)), "contacts": .array(people)]),
                    // Kith keeps no emotions.
                    ("emotions", []), ("url", .string(presentation.url("activities/\(record.id)"))),
                ] + presentation.stamps(record)))
    }
}
