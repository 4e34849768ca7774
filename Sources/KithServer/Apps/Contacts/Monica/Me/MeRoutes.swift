import Foundation
import Hummingbird
import KithCore

/// `GET /api` (the welcome and the index of lists), `/api/me`, `/api/me/contact`, `/api/countries`.
struct MeRoutes {
    let accounts: MonicaAccountRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("") { call in MonicaResponse.make(MePresenter.welcome(call.presentation)) }
        routes.get("me") { call in
            try await me(try await accounts.withMe(call.account), call)
        }
        routes.post("me/contact") { call in
            let valid = try MonicaValidator.validate(try await call.input(), [FieldRules("contact_id", .required, .integer)])
            let account = try await accounts.setMeContact(
                account: call.accountID, contactID: valid.int("contact_id") ?? 0, now: call.now)
            return try me(account, call)
        }
        routes.delete("me/contact") { call in
            try me(try await accounts.setMeContact(account: call.accountID, contactID: nil, now: call.now), call)
        }
        routes.get("countries") { _ in MonicaResponse.make(CountryPresenter.listBody) }
    }

    private func me(_ account: WithContacts<MonicaAccount>, _ call: MonicaRequest) throws -> Response {
        let presentation = MonicaPresentation(
            baseURL: call.presentation.baseURL, accountID: account.value.id, meContactID: account.value.meContactID,
            currency: MonicaCurrency(code: account.value.currency))
        return MonicaResponse.data(MePresenter.present(account, user: try call.context.requireUser(), presentation))
    }
}
