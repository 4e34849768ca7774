/// Base64url without padding (RFC 4648 §5), written directly: tokens and sync cursors are made on
/// every refresh, push and pull, and Foundation's encoder plus three replacements cost more than
/// the rest of making them.
public enum Base64URL {
    public static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var group = 0
            for (offset, byte) in chunk.enumerated() { group |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { text.append(digits[(group >> (18 - 6 * position)) & 63]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` encodes; nil unless it is exactly what `encode` writes for them: the URL
    /// alphabet only, no padding, and no stray bits in its last character. So every byte string
    /// has one text form, and a token read back is the token that was handed out. Inlinable, so
    /// a caller's text is read without generic calls (every authenticated request reads its
    /// token's session id through this).
    @inlinable
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        decode(utf8: text.utf8)
    }

    /// The same, over a text's UTF-8 bytes.
    @inlinable
    public static func decode(utf8 text: some Collection<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count * 3 / 4)
        var group = 0
        var bits = 0
        for character in text {
            guard let value = values[Int(character)] else { return nil }
            group = (group << 6 | Int(value)) & 0xFFF
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8(truncatingIfNeeded: group >> bits))
            }
        }
        // 6 leftover bits cannot be a whole byte (a length of 4n + 1); fewer must all be zero.
        guard bits < 6, group & ((1 << bits) - 1) == 0 else { return nil }
        return bytes
    }

    private static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Each byte's value in the alphabet, nil for a byte outside it.
    @usableFromInline static let values: [UInt8?] = {
        var table = [UInt8?](repeating: nil, count: 256)
        for (value, digit) in digits.enumerated() { table[Int(digit)] = UInt8(value) }
        return table
    }()
}
