import Foundation

/// Reading Monica's JSON as real servers send it: numbers sometimes as strings ("12", "12.50"),
/// booleans as 0/1 or "0"/"1", timestamps with or without fractional seconds, and any optional
/// key missing or null. A value of the wrong shape in an optional field reads as nil rather than
/// failing the whole object; only an object's `id` is required.
extension KeyedDecodingContainer {
    func lenientInt(_ key: Key) -> Int? {
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Double.self, forKey: key), value.rounded() == value,
            abs(value) < 9e15
        {
            return Int(value)
        }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            return Int(text.trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    func requiredInt(_ key: Key) throws -> Int {
        guard let value = lenientInt(key) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "\(key.stringValue) must be a whole number")
        }
        return value
    }

    func lenientDouble(_ key: Key) -> Double? {
        if let value = try? decodeIfPresent(Double.self, forKey: key) { return value }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            return Double(text.trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    func lenientBool(_ key: Key) -> Bool? {
        if let value = try? decodeIfPresent(Bool.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return value != 0 }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "true", "yes", "on": return true
            case "0", "false", "no", "off", "": return false
            default: return nil
            }
        }
        return nil
    }

    /// Text, or a number written as text (Monica sends gift amounts either way).
    func lenientString(_ key: Key) -> String? {
        if let value = try? decodeIfPresent(String.self, forKey: key) { return value }
        if let value = try? decodeIfPresent(Int.self, forKey: key) { return String(value) }
        if let value = try? decodeIfPresent(Double.self, forKey: key) { return String(value) }
        return nil
    }

    func lenientDate(_ key: Key) -> Date? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return MonicaTimestamp.parse(text) }
        // A cache written by this SDK stores dates as seconds since 1970.
        if let seconds = try? decodeIfPresent(Double.self, forKey: key) { return Date(timeIntervalSince1970: seconds) }
        return nil
    }

    func lenientDay(_ key: Key) -> MonicaDay? {
        (try? decodeIfPresent(String.self, forKey: key)).flatMap { $0.flatMap(MonicaDay.init) }
    }

    /// A nested object or nil when it is missing, null, or not readable.
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }

    /// A list, keeping the elements that read and leaving out the ones that don't.
    func lenientArray<T: Decodable>(_ type: T.Type, _ key: Key) -> [T] {
        guard let items = try? decodeIfPresent([Lossy<T>].self, forKey: key) else { return [] }
        return items.compactMap(\.value)
    }
}

/// One element of a list that may not read: nil instead of failing the list.
struct Lossy<T: Decodable>: Decodable {
    let value: T?
    init(from decoder: any Decoder) throws { value = try? T(from: decoder) }
}

/// Monica's timestamps: `2024-05-04T08:06:05Z`, Carbon's `2024-05-04T08:06:05.000000Z`, an offset
/// instead of `Z`, or a plain `2024-05-04` (midnight UTC).
enum MonicaTimestamp {
    static func parse(_ text: String) -> Date? {
        let text = text.trimmingCharacters(in: .whitespaces)
        guard text.count >= 10 else { return nil }
        if text.count == 10 { return MonicaDay(text)?.midnightUTC }
        var withoutFraction = text
        var fraction = 0.0
        if let dot = text.firstIndex(of: ".") {
            let zone = text[dot...].firstIndex(where: { $0 == "Z" || $0 == "+" || $0 == "-" }) ?? text.endIndex
            fraction = Double("0" + text[dot..<zone]) ?? 0
            withoutFraction = String(text[..<dot] + text[zone...])
        }
        // "2024-05-04 08:06:05" (MySQL's format, as some exports have it) reads as UTC.
        withoutFraction = withoutFraction.replacingOccurrences(of: " ", with: "T")
        if !withoutFraction.hasSuffix("Z") && !withoutFraction.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" })
        {
            withoutFraction += "Z"
        }
        // A format style is a value: safe to use from any thread, unlike a shared formatter.
        guard let whole = try? Date.ISO8601FormatStyle().parse(withoutFraction) else { return nil }
        return whole.addingTimeInterval(fraction)
    }
}
