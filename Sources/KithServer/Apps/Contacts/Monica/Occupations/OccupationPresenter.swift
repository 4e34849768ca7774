import KithCore

/// An occupation as Monica answers it: its company in full, its contact short. Its days are
/// plain `Y-m-d` (Monica's `date_timestamp_format`), not timestamps.
enum OccupationPresenter {
    static func present(
        _ record: OccupationRecord, company: CompanyRecord?, contact: JSONTree?, _ presentation: MonicaPresentation
    ) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("object", "occupation"), ("title", .string(record.title)),
                    ("description", .nullable(record.description)), ("salary", .nullable(record.salary)),
                    ("salary_unit", .nullable(record.salaryUnit)),
                    ("currently_works_here", .bool(record.currentlyWorksHere)),
                    ("start_date", .nullable(record.startDate)), ("end_date", .nullable(record.endDate)),
                    ("company", company.map { CompanyPresenter.present($0, presentation) } ?? .null),
                ] + presentation.stamps(record, contact: contact)))
    }
}
