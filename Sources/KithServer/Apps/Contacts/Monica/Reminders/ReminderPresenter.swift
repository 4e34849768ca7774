import KithCore

enum ReminderPresenter {
    static func present(_ record: ReminderRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "reminder")] + fields(record)
                    + presentation.stamps(record, contact: contact)))
    }

    /// One of `upcoming/{month}`: the reminder, with the day it falls on.
    static func upcoming(_ record: ReminderRecord, on day: MonicaDate, contact: JSONTree?, _ presentation: MonicaPresentation)
        -> JSONTree
    {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("reminder_id", .int(record.id)), ("object", "reminder"),
                    ("planned_date", .string(day.midnightTimestamp)),
                ] + fields(record) + presentation.stamps(record, contact: contact)))
    }

    private static func fields(_ record: ReminderRecord) -> [(String, JSONTree)] {
        [
            ("title", .string(record.title)), ("description", .nullable(record.description)),
            ("frequency_type", .string(record.frequencyType)), ("frequency_number", .nullable(record.frequencyNumber)),
            ("initial_date", .nullable(MonicaDate(ymd: record.initialDate)?.midnightTimestamp)),
            ("delible", .bool(record.delible)),
        ]
    }
}
