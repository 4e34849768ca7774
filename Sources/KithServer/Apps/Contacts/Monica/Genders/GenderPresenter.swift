import KithCore

enum GenderPresenter {
    static func present(_ record: GenderRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [("id", .int(record.id)), ("object", "gender"), ("name", .string(record.name)), ("type", .nullable(record.type))]
                    + presentation.stamps(record)))
    }
}
