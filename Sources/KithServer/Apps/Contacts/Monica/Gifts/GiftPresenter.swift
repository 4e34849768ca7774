import Foundation
import KithCore

enum GiftPresenter {
    /// Monica shows no amount as null and the amount with two decimals after the account's currency.
    static func present(
        _ record: GiftRecord, contact: JSONTree?, recipient: JSONTree?, photos: [PhotoRecord],
        _ presentation: MonicaPresentation
    )
        -> JSONTree
    {
        let amount = record.amount.flatMap { $0 == 0 ? nil : $0 }
        let value = amount.map { String(format: "%.2f", $0) }
        return .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "gift"),
                    ("name", .string(record.name)),
                    ("comment", .nullable(record.comment)), ("url", .nullable(record.url)),
                    ("amount", .nullable(amount)),
                    ("value", .string(value ?? "")),
                    ("amount_with_currency", .string(amount.map(presentation.currency.amount) ?? "")),
                    ("status", .string(record.status)), ("date", .nullable(record.date)),
                    ("recipient", .nullable(recipient)),
                    ("photos", .array(photos.map { PhotoPresenter.present($0, contact: contact, presentation) })),
                    ("contact", .nullable(contact)),
                ] + presentation.stamps(record)))
    }
}
