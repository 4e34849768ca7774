import Foundation

/// A currency an account writes its gifts' values in: its ISO 4217 code, its English name and the
/// symbol written before an amount ("€12.50"), as Monica writes `amount_with_currency`.
public struct Currency: Sendable, Equatable, Identifiable {
    public let code: String
    public let name: String
    public let symbol: String

    public var id: String { code }

    /// "€12.50": two decimals after the symbol, as Monica shows a gift's value.
    public func amount(_ value: Double) -> String {
        symbol + String(format: "%.2f", value)
    }
}

/// The currencies an account may choose (ISO 4217), the most used ones. Their order is their
/// number on `/api` (`currency.id`): Monica's own list starts with the Canadian and the US dollar,
/// so US dollars, the default, are 2 as on every Monica server.
public enum Currencies {
    /// What an account has until it chooses: Monica's default.
    public static let standard = Currency(code: "USD", name: "US Dollar", symbol: "$")

    public static let all: [Currency] = [
        Currency(code: "CAD", name: "Canadian Dollar", symbol: "CA$"), standard,
        Currency(code: "GBP", name: "British Pound", symbol: "£"), Currency(code: "EUR", name: "Euro", symbol: "€"),
        Currency(code: "AUD", name: "Australian Dollar", symbol: "A$"),
        Currency(code: "NZD", name: "New Zealand Dollar", symbol: "NZ$"),
        Currency(code: "CHF", name: "Swiss Franc", symbol: "CHF "),
        Currency(code: "JPY", name: "Japanese Yen", symbol: "¥"),
        Currency(code: "CNY", name: "Chinese Yuan", symbol: "CN¥"),
        Currency(code: "INR", name: "Indian Rupee", symbol: "₹"),
        Currency(code: "BRL", name: "Brazilian Real", symbol: "R$"),
        Currency(code: "MXN", name: "Mexican Peso", symbol: "MX$"),
        Currency(code: "SEK", name: "Swedish Krona", symbol: "SEK "),
        Currency(code: "NOK", name: "Norwegian Krone", symbol: "NOK "),
        Currency(code: "DKK", name: "Danish Krone", symbol: "DKK "),
        Currency(code: "PLN", name: "Polish Zloty", symbol: "zł "),
        Currency(code: "CZK", name: "Czech Koruna", symbol: "Kč "),
        Currency(code: "HUF", name: "Hungarian Forint", symbol: "Ft "),
        Currency(code: "RUB", name: "Russian Ruble", symbol: "₽"),
        Currency(code: "TRY", name: "Turkish Lira", symbol: "₺"),
        Currency(code: "ILS", name: "Israeli New Shekel", symbol: "₪"),
        Currency(code: "ZAR", name: "South African Rand", symbol: "R "),
        Currency(code: "SGD", name: "Singapore Dollar", symbol: "S$"),
        Currency(code: "HKD", name: "Hong Kong Dollar", symbol: "HK$"),
        Currency(code: "KRW", name: "South Korean Won", symbol: "₩"),
        Currency(code: "TWD", name: "New Taiwan Dollar", symbol: "NT$"),
        Currency(code: "THB", name: "Thai Baht", symbol: "฿"),
        Currency(code: "IDR", name: "Indonesian Rupiah", symbol: "Rp "),
        Currency(code: "PHP", name: "Philippine Peso", symbol: "₱"),
        Currency(code: "AED", name: "UAE Dirham", symbol: "AED "),
        Currency(code: "SAR", name: "Saudi Riyal", symbol: "SAR "),
        Currency(code: "ARS", name: "Argentine Peso", symbol: "ARS "),
        Currency(code: "CLP", name: "Chilean Peso", symbol: "CLP "),
        Currency(code: "COP", name: "Colombian Peso", symbol: "COP "),
        Currency(code: "EGP", name: "Egyptian Pound", symbol: "E£"),
        Currency(code: "NGN", name: "Nigerian Naira", symbol: "₦"),
    ]

    /// The currency with `code` (any case, spaces around ignored); nil when it is not on the list.
    public static func named(_ code: String) -> Currency? {
        let wanted = code.trimmingCharacters(in: .whitespaces).uppercased()
        return all.first { $0.code == wanted }
    }

    /// Its number on `/api` (`currency.id`).
    public static func number(of currency: Currency) -> Int64 {
        Int64((all.firstIndex(of: currency) ?? 1) + 1)
    }
}
