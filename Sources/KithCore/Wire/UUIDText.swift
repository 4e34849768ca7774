import Foundation

/// UUIDs as text without Foundation's formatter and parser: on Linux they go through C's
/// `sprintf` and `sscanf`, and with the lower-casing after them they were a tenth of a device's
/// CPU in a first pull, where every record's id is read and written twice.
/// `UUIDTextTests` holds both to Foundation's.
extension UUID {
    /// The lower-case text form every Kith table and wire message uses.
    public var lowercased: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = Self.hexDigits[Int(byte >> 4)]
                    text[at + 1] = Self.hexDigits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }

    /// Reads the text form in either case (`8-4-4-4-12` hex digits); nil for anything else.
    /// Stricter than `UUID(uuidString:)` on Linux, whose `sscanf` also takes a space or a sign
    /// before a group (`" 6f9619ff-…"`) and reads it as another id; Apple's parser refuses those.
    public init?(text: String) {
        var bytes = (UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0),
            UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0), UInt8(0))
        var text = text
        let read: Bool = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return false }
            return withUnsafeMutableBytes(of: &bytes) { output in
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = Self.hexValue(utf8[at]), let low = Self.hexValue(utf8[at + 1]) else { return false }
                    output[index] = high << 4 | low
                    at += 2
                }
                return true
            }
        }
        guard read else { return nil }
        self.init(uuid: bytes)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
