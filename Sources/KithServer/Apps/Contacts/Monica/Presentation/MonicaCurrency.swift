import KithCore

/// The account's currency, as Monica names one on the user (`/api/me`'s `currency`) and writes
/// it before a gift's value (`amount_with_currency`). Kith accounts have no currency setting yet,
/// so every account has Monica's default, US dollars; the pages read it from `/api/me`, so a
/// setting would reach them without a change there.
struct MonicaCurrency: Sendable {
    let id: Int64
    let iso: String
    let name: String
    let symbol: String

    static let account = MonicaCurrency(id: 2, iso: "USD", name: "US Dollar", symbol: "$")

    var json: JSONTree {
        ["id": .int(id), "object": "currency", "iso": .string(iso), "name": .string(name), "symbol": .string(symbol)]
    }

    /// "$12.50": the amount with two decimals after the symbol, as Monica shows it.
    func amount(_ value: Double) -> String { symbol + String(format: "%.2f", value) }
}
