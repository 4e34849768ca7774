import Foundation
import KithCore

/// Reading a Monica answer's fields as the matching request wants them: Monica sends numbers
/// as text ("150.00"), booleans as 0 and 1, days as timestamps.
extension JSONTree {
    /// The text at `key`, or null.
    func text(_ key: String) -> JSONTree { self[key]?.stringValue.map(JSONTree.string) ?? .null }

    /// The true or false at `key` (also 1 and 0, "1" and "true"), or nil.
    func flag(_ key: String) -> Bool? {
        switch self[key] {
        case .bool(let value)?: value
        case .int(let value)?: value != 0
        case .string(let value)?: ["1", "true", "yes"].contains(value.lowercased())
        default: nil
        }
    }

    /// The number at `key`, also from text; null when there is none.
    func number(_ key: String) -> JSONTree {
        switch self[key] {
        case .int(let value)?: .int(value)
        case .double(let value)?: .double(value)
        case .string(let text)?:
            if let int = Int64(text) {
                .int(int)
            } else if let double = Double(text), double.isFinite {
                .double(double)
            } else {
                .null
            }
        default: .null
        }
    }

    /// The day (`Y-m-d`) of the date or timestamp at `key`, or null.
    func day(_ key: String) -> JSONTree {
        guard let text = self[key]?.stringValue, text.count >= 10 else { return .null }
        let day = String(text.prefix(10))
        return LocalDate(day) == nil ? .null : .string(day)
    }

    /// A Monica "special date" (`{is_age_based, is_year_unknown, date}`) as the day, month and
    /// year a request gives it; nil when no date is known.
    var specialDate: (ageBased: Bool, day: Int, month: Int, year: Int?)? {
        guard let text = self["date"]?.stringValue, let date = LocalDate(String(text.prefix(10))) else { return nil }
        let yearUnknown = flag("is_year_unknown") ?? false
        return (flag("is_age_based") ?? false, date.day, date.month, yearUnknown ? nil : date.year)
    }

    /// An object from members, leaving out those whose value is nil.
    static func members(_ members: [(String, JSONTree?)]) -> JSONTree {
        .object(JSONObject(members.compactMap { key, value in value.map { (key, $0) } }))
    }
}
