import Foundation
import Hummingbird
import KithCore

/// `/api/debts` and `/api/contacts/{id}/debts`.
struct DebtsRoutes {
    static let rules = [
        FieldRules("in_debt", .required, .string, .oneOf(["yes", "no"])),
        FieldRules("status", .required, .string, .oneOf(["inprogress", "completed"])),
        // Kith's bounds, as a gift's: `in_debt` says who owes whom, so a negative amount would only
        // say it twice (or contradict it); and no one's debt is past a trillion.
        FieldRules("amount", .required, .numeric, .atLeast(0), .between(0, 1_000_000_000_000)),
        FieldRules("reason", .nullable, .string, .max(1_000_000)), FieldRules("contact_id", .required, .integer),
    ]

    let repository: DebtRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned("debts", repository.owned, present: Self.present) { call, id in
            try await save(call, id: id)
        }
    }

    static let present: OwnedPresenter<DebtRecord> = { debt, contact, presentation in
        DebtPresenter.present(debt, contact: contact(debt.contactID), presentation)
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        // As Monica: a debt that is not the account's is 404 before the input is looked at.
        if let id { _ = try await repository.owned.find(account: call.accountID, id: id) }
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let input = DebtInput(
            contactID: valid.int("contact_id") ?? 0, inDebt: valid.string("in_debt") ?? "",
            status: valid.string("status") ?? "", amount: valid.double("amount") ?? 0, reason: valid.string("reason"))
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return owned(saved, call, Self.present, status: id == nil ? .created : .ok)
    }
}
