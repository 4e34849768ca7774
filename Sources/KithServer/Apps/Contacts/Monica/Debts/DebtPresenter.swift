import Foundation
import KithCore

enum DebtPresenter {
    /// Amounts as gifts show them: none (or zero) is a null amount and empty texts, else the
    /// amount, its two decimals, and the two decimals after the account's currency.
    static func present(_ record: DebtRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        let amount: Double? = record.amount == 0 ? nil : record.amount
        return .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "debt"),
                    ("in_debt", .string(record.inDebt)), ("status", .string(record.status)),
                    ("amount", .nullable(amount)),
                    ("value", .string(amount.map { String(format: "%.2f", $0) } ?? "")),
                    ("amount_with_currency", .string(amount.map(presentation.currency.amount) ?? "")),
                    ("reason", .nullable(record.reason)),
                ] + presentation.stamps(record, contact: contact)))
    }
}
