import Foundation

/// A number as a person types it into a form: an optional sign, digits, and a decimal point or
/// comma with digits after it ("250", "12.5", "12,5", "-3"). `Double(String)` also reads
/// hexadecimal ("0x10" is 16), exponents ("1e3"), "inf" and "nan": a form that used it logged
/// "0x10" as 16 kcal. What is not a plain decimal is refused instead of read as something else.
public enum DecimalText {
    /// The number `text` holds, surrounding spaces aside; nil when it is not a plain decimal.
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var digits = Substring(trimmed)
        if let first = digits.first, first == "-" || first == "+" { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false) }
        // "12", "12.5", ".5": digits on at least one side of the separator, and after it when there is one.
        guard (1...2).contains(parts.count), parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            parts.count == 1 ? !parts[0].isEmpty : !parts[1].isEmpty
        else { return nil }
        return Double(trimmed.replacingOccurrences(of: ",", with: "."))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
