import Foundation
import Hummingbird
import KithCore

/// `/api/occupations`. Monica has no `/api/contacts/{id}/occupations`, so neither does Kith.
struct OccupationsRoutes {
    /// Monica takes any integer as a salary (and failed on its column past 2^31); Kith takes 0 to
    /// a million million, enough for a year's pay in any currency (in won or rupiah too), and
    /// refuses what can only be a slip: a negative pay, or one past every fortune.
    static let rules = [
        FieldRules("contact_id", .required, .integer), FieldRules("company_id", .required, .integer),
        FieldRules("title", .required, .string, .max(255)), FieldRules("description", .nullable, .string, .max(1000)),
        FieldRules("salary", .nullable, .integer, .between(0, 1_000_000_000_000)),
        FieldRules("salary_unit", .nullable, .oneOf(["year", "month", "week", "day", "hour"])),
        FieldRules("currently_works_here", .nullable, .boolean),
        FieldRules("start_date", .nullable, .dateYMD), FieldRules("end_date", .nullable, .dateYMD),
    ]

    let repository: OccupationRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("occupations") { call in
            let page = try call.page()
            let found = try await repository.page(account: call.accountID, page)
            return PageEnvelope(
                items: Self.present(found.view, call.presentation), total: found.total, request: page,
                path: call.indexURL
            ).response
        }
        routes.get("occupations/{id}") { call in
            try Self.one(try await repository.find(account: call.accountID, id: try call.id()), call)
        }
        routes.post("occupations") { call in try await save(call, id: nil) }
        routes.put("occupations/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("occupations", attribute: "occupation id", answerText: false) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    static func present(_ view: OccupationsView, _ presentation: MonicaPresentation) -> [JSONTree] {
        view.occupations.map { occupation in
            OccupationPresenter.present(
                occupation, company: view.companies[occupation.companyID],
                contact: view.contacts.short(occupation.contactID, presentation), presentation)
        }
    }

    private static func one(_ view: OccupationsView, _ call: MonicaRequest, status: HTTPResponse.Status = .ok) throws
        -> Response
    {
        guard let item = present(view, call.presentation).first, let occupation = view.occupations.first else {
            throw MonicaError.notFound
        }
        return MonicaResponse.data(item, status: status, tag: EntityTag(occupation))
    }

    /// Create, or replace the fields of an existing occupation (Monica's update resets what is not sent).
    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let start = valid.date("start_date")
        let end = valid.date("end_date")
        // Kith's check: Monica kept a job that ended before it began.
        if let start = start.flatMap(MonicaDate.init(ymd:)), let end = end.flatMap(MonicaDate.init(ymd:)), end < start {
            throw MonicaError.invalid("The end date must be a date after or equal to start date.")
        }
        let input = OccupationInput(
            contactID: valid.int("contact_id") ?? 0, companyID: valid.int("company_id") ?? 0,
            title: valid.string("title") ?? "", description: valid.string("description"), salary: valid.int("salary"),
            salaryUnit: valid.string("salary_unit"), currentlyWorksHere: valid.bool("currently_works_here"),
            startDate: start, endDate: end)
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return try Self.one(saved, call, status: id == nil ? .created : .ok)
    }
}
