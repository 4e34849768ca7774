import KithCore

/// The account's currency (chosen on the account page, `Currencies` in KithCore), as Monica names
/// one on the user (`/api/me`'s `currency`) and writes it before a gift's value
/// (`amount_with_currency`); the pages read it from `/api/me`.
struct MonicaCurrency: Sendable {
    let currency: Currency

    /// The account's stored code; a code no longer on the list reads as the default.
    init(code: String?) {
        currency = code.flatMap(Currencies.named) ?? Currencies.standard
    }

    var json: JSONTree {
        [
            "id": .int(Currencies.number(of: currency)), "object": "currency", "iso": .string(currency.code),
            "name": .string(currency.name), "symbol": .string(currency.symbol),
        ]
    }

    /// "$12.50": the amount with two decimals after the symbol, as Monica shows it.
    func amount(_ value: Double) -> String { currency.amount(value) }
}
