/// Pieces of JSON text written straight into bytes: what `JSONTree` writes with, and what the
/// server uses to answer a pull without decoding and encoding again what it stored as JSON.
public enum JSONText {
    /// A string in quotes with JSON's escapes; text that needs none is copied whole.
    public static func append(string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        let copied = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: needsEscape) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if copied != true {
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""): output.append(contentsOf: [92, 34])
                case UInt8(ascii: "\\"): output.append(contentsOf: [92, 92])
                case 0x0A: output.append(contentsOf: [92, UInt8(ascii: "n")])
                case 0x0D: output.append(contentsOf: [92, UInt8(ascii: "r")])
                case 0x09: output.append(contentsOf: [92, UInt8(ascii: "t")])
                case 0..<0x20:
                    output.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                default: output.append(byte)
                }
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// An integer in decimal (Int64.min included).
    public static func append(integer: Int64, to output: inout [UInt8]) {
        if integer < 0 { output.append(UInt8(ascii: "-")) }
        var rest = integer.magnitude
        var divisor: UInt64 = 1
        while rest / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// `"key":`, the key escaped.
    public static func append(key: String, to output: inout [UInt8]) {
        append(string: key, to: &output)
        output.append(UInt8(ascii: ":"))
    }

    /// A JSON object whose values are all strings (`{"a":"x","b":"y"}`), read without a decoder:
    /// devices keep each record's stamps so, and read them for every record a pull brings. Nil
    /// for any other text.
    public static func stringObject(_ text: String) -> [String: String]? {
        var reader = Reader(bytes: Array(text.utf8))
        var object: [String: String] = [:]
        guard reader.take(UInt8(ascii: "{")) else { return nil }
        if reader.take(UInt8(ascii: "}")) { return reader.atEnd ? object : nil }
        repeat {
            guard let key = reader.string(), reader.take(UInt8(ascii: ":")), let value = reader.string() else { return nil }
            object[key] = value
        } while reader.take(UInt8(ascii: ","))
        return reader.take(UInt8(ascii: "}")) && reader.atEnd ? object : nil
    }

    /// Reads JSON text: punctuation, strings and (`JSONTree.parse`) whole values, skipping white
    /// space between tokens.
    struct Reader {
        let bytes: [UInt8]
        var position = 0
        /// An object with a key written twice is not read (`JSONTree.parse`).
        var refusesDuplicateKeys = false

        var atEnd: Bool {
            mutating get {
                skipSpace()
                return position == bytes.count
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A string with its escapes resolved; nil when the text is not one.
        mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            // Most strings have no escape: made from their bytes in one go, not byte by byte
            // (reading strings was an eighth of a device's CPU in a first pull).
            // ASCII needs no validation: `String(validating:)` is generic, and looked its
            // types up at run time for every string.
            let start = position
            var ascii = true
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    let text = bytes[start..<position - 1]
                    return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                if byte >= 0x80 { ascii = false }
                position += 1
            }
            position = start
            var decoded: [UInt8] = []
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""): return String(validating: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { return nil }
                    let escaped = bytes[position]
                    position += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        decoded.append(contentsOf: String(Character(scalar)).utf8)
                    default: return nil
                    }
                case 0..<0x20: return nil
                default: decoded.append(byte)
                }
            }
            return nil
        }

        /// The scalar after `\u`: four hex digits, or a surrogate pair of two escapes.
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            guard (0xD800...0xDBFF).contains(high) else { return Unicode.Scalar(high) }
            guard position + 2 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
            else { return nil }
            position += 2
            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        }

        private mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for byte in bytes[position..<position + 4] {
                guard let digit = Character(Unicode.Scalar(byte)).hexDigitValue else { return nil }
                value = value << 4 | UInt32(digit)
            }
            position += 4
            return value
        }

        mutating func skipSpace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0A, 0x0D: position += 1
                default: return
                }
            }
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
