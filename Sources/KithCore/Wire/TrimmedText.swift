extension String {
    /// The text without white space or line breaks at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` gives (that set is Unicode's White_Space
    /// property plus U+200B, the zero-width space, which older Unicode counted as a space), read
    /// scalar by scalar. Foundation on Linux goes through NSString and UTF-16 for
    /// it, which was 7 % of a server's CPU on a push of text fields.
    public var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isWhitespace($0) }) else { return "" }
        // A non-space scalar exists, so a last one does too.
        let last = scalars.lastIndex(where: { !Self.isWhitespace($0) }) ?? first
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return self }
        return String(scalars[first...last])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return scalar.value == 0x200B || scalar.properties.isWhitespace
    }
}
