import KithCore

enum JournalPresenter {
    static func entry(_ record: EntryRecord, _ presentation: MonicaPresentation) -> JSONTree {
        // Monica answers the entry's Carbon date as JSON writes it: its midnight, with microseconds.
        let date = MonicaDate(ymd: record.date).map { ContactPresenter.carbon($0.epochMillis) } ?? .null
        return .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "entry"),
                    ("title", .string(record.title)), ("post", .string(record.post)), ("date", date),
                    ("url", .string(presentation.url("journal/\(record.id)"))),
                ] + presentation.stamps(record)))
    }

    /// Kith's own object (Monica rates days on its web pages only): the day as the body gives it.
    static func day(_ record: DayRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "day"),
                    ("date", .string(record.date)), ("rate", .int(record.rate)), ("comment", .nullable(record.comment)),
                    ("url", .string(presentation.url("journal/days/\(record.id)"))),
                ] + presentation.stamps(record)))
    }
}
