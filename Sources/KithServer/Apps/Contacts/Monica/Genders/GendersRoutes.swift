import Foundation
import Hummingbird
import KithCore

/// `/api/genders`.
struct GendersRoutes {
    static let rules = [
        FieldRules("name", .required, .string, .max(255)), FieldRules("type", .required, .oneOf(["M", "F", "O"])),
    ]

    let repository: GenderRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.index("genders", load: { try await repository.page(account: $0.accountID, $1) }, present: GenderPresenter.present)
        routes.show("genders", load: { try await repository.find(account: $0.accountID, id: $1) }, present: GenderPresenter.present)
        routes.post("genders") { call in try await save(call, id: nil) }
        routes.put("genders/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("genders", attribute: "gender id", answerText: false) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), name: valid.string("name") ?? "",
            type: valid.string("type") ?? "", now: call.now)
        return MonicaResponse.data(
            GenderPresenter.present(saved, call.presentation), status: id == nil ? .created : .ok,
            tag: EntityTag(saved))
    }
}
