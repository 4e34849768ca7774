import KithCore

/// A company as Monica answers it, alone and inside an occupation.
enum CompanyPresenter {
    static func present(_ record: CompanyRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("object", "company"), ("name", .string(record.name)),
                    ("website", .nullable(record.website)),
                    ("number_of_employees", .nullable(record.numberOfEmployees)),
                ] + presentation.stamps(record)))
    }
}
