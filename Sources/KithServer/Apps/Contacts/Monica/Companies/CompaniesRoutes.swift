import Foundation
import Hummingbird
import KithCore

/// `/api/companies`: the companies where the account's contacts work.
struct CompaniesRoutes {
    /// Monica takes any integer for the number of employees; Kith takes 0 to 10 million. The
    /// largest employers in the world, armies included, have fewer than 3 million people, so a
    /// count past 10 million, or below zero, is a slip of the keyboard that a client would show.
    static let rules = [
        FieldRules("name", .required, .string, .max(255)), FieldRules("website", .nullable, .string, .max(255)),
        FieldRules("number_of_employees", .nullable, .integer, .between(0, 10_000_000)),
    ]

    let repository: CompanyRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.index(
            "companies", load: { try await repository.page(account: $0.accountID, $1) },
            present: CompanyPresenter.present)
        routes.show(
            "companies", load: { try await repository.find(account: $0.accountID, id: $1) },
            present: CompanyPresenter.present)
        routes.post("companies") { call in try await save(call, id: nil) }
        routes.put("companies/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("companies", attribute: "company id", answerText: false) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    /// Create, or replace every field of an existing company (Monica's update resets what is not sent).
    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let input = CompanyInput(
            name: valid.string("name") ?? "", website: valid.string("website"),
            numberOfEmployees: valid.int("number_of_employees"))
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return MonicaResponse.data(
            CompanyPresenter.present(saved, call.presentation), status: id == nil ? .created : .ok,
            tag: EntityTag(saved))
    }
}
