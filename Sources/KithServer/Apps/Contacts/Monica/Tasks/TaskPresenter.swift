import KithCore

enum TaskPresenter {
    static func present(_ record: TaskRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "task"), ("title", .string(record.title)),
                    ("description", .nullable(record.description)), ("completed", .bool(record.completed)),
                    ("completed_at", .nullable(MonicaTimestamp.format(millis: record.completedAt))),
                ] + presentation.stamps(record, contact: contact)))
    }
}
