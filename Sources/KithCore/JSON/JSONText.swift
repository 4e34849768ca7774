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

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
