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
        routes.get("genders") { call in
            let page = try call.page()
            let found = try await repository.page(account: call.accountID, page)
            return PageEnvelope(
                items: found.records.map { GenderPresenter.present($0, call.presentation) }, total: found.total,
                request: page, path: call.indexURL
            ).response
        }
        routes.get("genders/{id}") { call in
            let gender = try await repository.find(account: call.accountID, id: try call.id())
            return MonicaResponse.data(GenderPresenter.present(gender, call.presentation))
        }
        routes.post("genders") { call in try await save(call, id: nil) }
        routes.put("genders/{id}") { call in try await save(call, id: try call.id()) }
        routes.delete("genders/{id}") { call in
            let id = try call.deletedID(attribute: "gender id")
            try await repository.delete(account: call.accountID, id: id)
            return MonicaResponse.deleted(.int(id))
        }
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let saved = try await repository.save(
            account: call.accountID, id: id, name: valid.string("name") ?? "", type: valid.string("type") ?? "",
            now: call.now)
        return MonicaResponse.data(GenderPresenter.present(saved, call.presentation), status: id == nil ? .created : .ok)
    }
}
