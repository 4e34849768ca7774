import Foundation

/// The line grammar vCard (RFC 6350 §3.3) and iCalendar (RFC 5545 §3.1) share: reading a body
/// into content lines, writing lines back folded, and the TEXT escapes.
public enum ContentLines {
    /// Unfolds (CRLF or LF followed by a space or tab), splits and parses each line. Takes LF-only
    /// and CRLF text, a UTF-8 byte order mark, blank lines (skipped), quoted parameter values with
    /// RFC 6868 `^` escapes, vCard 2.1 bare parameters (`TEL;CELL:` is `TYPE=CELL`) and 2.1
    /// quoted-printable soft line breaks. Past `CardLimits` it throws, naming the line.
    public static func parse(_ text: String) throws(CardFormatError) -> [ContentLine] {
        var lines: [ContentLine] = []
        for unfolded in try unfold(text) {
            lines.append(try parseLine(unfolded.bytes, number: unfolded.number))
        }
        return lines
    }

    /// Writes the lines with CRLF endings, folded at 75 octets without splitting a UTF-8
    /// sequence. A parameter value holding `:`, `;` or `,` is quoted; `^`, `"` and line breaks in
    /// one are written as RFC 6868 `^^`, `^'`, `^n`. A line break in a value (which a caller
    /// should have escaped) is written as `\n`, so the body always stays well formed.
    public static func write(_ lines: [ContentLine]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(lines.count * 40)
        for line in lines { fold(logicalBytes(line), into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// TEXT escaping: `\` `,` `;` and line breaks (CRLF, LF or CR, all written `\n`).
    public static func escapeText(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in s.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case ",": out.append(contentsOf: "\\,".unicodeScalars)
            case ";": out.append(contentsOf: "\\;".unicodeScalars)
            case "\r": out.append(contentsOf: "\\n".unicodeScalars)
            case "\n": if !previousWasCR { out.append(contentsOf: "\\n".unicodeScalars) }
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Undoes TEXT escaping: `\n` and `\N` are line breaks, `\\` `\,` `\;` the character; an
    /// unknown escape (`\:` from some clients) gives the character after the backslash, and a
    /// backslash at the very end is kept.
    public static func unescapeText(_ s: String) -> String {
        guard s.contains("\\") else { return s }
        var out = String.UnicodeScalarView()
        var escaping = false
        for scalar in s.unicodeScalars {
            if escaping {
                out.append(scalar == "n" || scalar == "N" ? "\n" : scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else {
                out.append(scalar)
            }
        }
        if escaping { out.append("\\") }
        return String(out)
    }

    /// Splits a raw value on each `separator` (`;` or `,`) that is not escaped, then unescapes
    /// each part: `Doe;John\, Jr.;;;` gives ["Doe", "John, Jr.", "", "", ""].
    public static func splitComponents(_ raw: String, separator: Character) -> [String] {
        guard let separatorScalar = separator.unicodeScalars.first else { return [unescapeText(raw)] }
        var parts: [String] = []
        var current = String.UnicodeScalarView()
        var escaping = false
        for scalar in raw.unicodeScalars {
            if escaping {
                current.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                current.append(scalar)
                escaping = true
            } else if scalar == separatorScalar {
                parts.append(unescapeText(String(current)))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        parts.append(unescapeText(String(current)))
        return parts
    }

    /// Joins parts with `separator`, escaping each as TEXT (the inverse of `splitComponents`).
    public static func joinComponents(_ parts: [String], separator: Character) -> String {
        parts.map(escapeText).joined(separator: String(separator))
    }

    // MARK: - Reading

    struct UnfoldedLine {
        var bytes: [UInt8]
        /// The physical line it starts on, 1-based.
        var number: Int
    }

    private static let space: UInt8 = 0x20, tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A, semicolon: UInt8 = 0x3B, comma: UInt8 = 0x2C
    private static let equals: UInt8 = 0x3D, quote: UInt8 = 0x22, dot: UInt8 = 0x2E, caret: UInt8 = 0x5E

    static func unfold(_ text: String) throws(CardFormatError) -> [UnfoldedLine] {
        let bytes = Array(text.utf8)
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var lines: [UnfoldedLine] = []
        var current: UnfoldedLine?
        var currentIsQuotedPrintable = false
        var softBreak = false
        var physical = 0

        func finish(_ line: UnfoldedLine?) throws(CardFormatError) {
            guard let line else { return }
            guard lines.count < CardLimits.maxLines else {
                throw CardFormatError(
                    line: line.number,
                    message:
                        "The text has more than \(CardLimits.maxLines.withThousandsSeparators) lines; Kith reads at most "
                        + "\(CardLimits.maxLines.withThousandsSeparators) in one body, so split it into smaller files.")
            }
            lines.append(line)
        }

        while index < bytes.count {
            var end = index
            while end < bytes.count, bytes[end] != lf { end += 1 }
            var contentEnd = end
            if contentEnd > index, bytes[contentEnd - 1] == cr { contentEnd -= 1 }
            physical += 1
            let piece = bytes[index..<contentEnd]
            index = end + 1

            if var line = current, softBreak || piece.first == space || piece.first == tab {
                let added = softBreak ? piece : piece.dropFirst()
                guard line.bytes.count + added.count <= CardLimits.maxLineBytes else {
                    throw tooLong(line.number)
                }
                line.bytes.append(contentsOf: added)
                current = line
            } else {
                try finish(current)
                current = nil
                let trimmed = piece.drop { $0 == space || $0 == tab }
                if !trimmed.isEmpty {
                    guard trimmed.count <= CardLimits.maxLineBytes else { throw tooLong(physical) }
                    current = UnfoldedLine(bytes: Array(trimmed), number: physical)
                    currentIsQuotedPrintable = declaresQuotedPrintable(trimmed)
                }
            }
            // vCard 2.1: a quoted-printable value ending in "=" goes on at the start of the next
            // line (a soft line break), with no leading space.
            softBreak = false
            if currentIsQuotedPrintable, current?.bytes.last == equals {
                current?.bytes.removeLast()
                softBreak = true
            }
        }
        try finish(current)
        return lines
    }

    private static func tooLong(_ number: Int) -> CardFormatError {
        CardFormatError(
            line: number,
            message:
                "Line \(number) is longer than \(CardLimits.maxLineBytes.withThousandsSeparators) bytes once unfolded; "
                + "Kith reads lines up to 64 KiB (a photo that large is too big to keep on a card).")
    }

    /// Whether the part of the line before its first colon names QUOTED-PRINTABLE.
    private static func declaresQuotedPrintable(_ line: ArraySlice<UInt8>) -> Bool {
        let head = line.prefix { $0 != colon }
        guard head.count >= 16 else { return false }
        let needle = Array("QUOTED-PRINTABLE".utf8)
        let upper = head.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }
        var start = 0
        while start + needle.count <= upper.count {
            if upper[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x5F
    }

    static func parseLine(_ bytes: [UInt8], number: Int) throws(CardFormatError) -> ContentLine {
        guard bytes.contains(colon) else {
            throw CardFormatError(
                line: number, message: "Line \(number) has no colon: each line is NAME:value (or NAME;PARAM=x:value).")
        }
        var index = 0
        func token() -> String {
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        func unexpected(_ what: String) -> CardFormatError {
            let shown = String(decoding: bytes.prefix(40), as: UTF8.self)
            return CardFormatError(line: number, message: "Line \(number) (\"\(shown)\") \(what).")
        }

        var group: String?
        var name = token()
        if index < bytes.count, bytes[index] == dot, !name.isEmpty {
            index += 1
            group = name
            name = token()
        }
        guard !name.isEmpty else { throw unexpected("does not start with a property name such as FN or SUMMARY") }

        var parameters: [ContentLine.Parameter] = []
        while index < bytes.count, bytes[index] == semicolon {
            index += 1
            guard parameters.count < CardLimits.maxParameters else {
                throw CardFormatError(
                    line: number,
                    message: "Line \(number) has more than \(CardLimits.maxParameters) parameters; Kith reads at most "
                        + "\(CardLimits.maxParameters) on one line.")
            }
            let parameterName = token()
            guard !parameterName.isEmpty else { throw unexpected("has a parameter with no name after a semicolon") }
            guard index < bytes.count, bytes[index] == equals else {
                // vCard 2.1: a bare parameter is a TYPE (TEL;CELL:…) or an ENCODING (NOTE;QUOTED-PRINTABLE:…).
                let encodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "8BIT", "7BIT", "B"]
                let bareName = encodings.contains(parameterName.uppercased()) ? "ENCODING" : "TYPE"
                parameters.append(ContentLine.Parameter(name: bareName, values: [parameterName]))
                continue
            }
            index += 1
            var values: [String] = []
            repeat {
                if index < bytes.count, bytes[index] == comma { index += 1 }
                if index < bytes.count, bytes[index] == quote {
                    let start = index + 1
                    guard let close = bytes[start...].firstIndex(of: quote) else {
                        throw unexpected("opens a quote in a parameter value and never closes it")
                    }
                    values.append(decodeParameterValue(bytes[start..<close]))
                    index = close + 1
                } else {
                    let start = index
                    while index < bytes.count, bytes[index] != comma, bytes[index] != semicolon, bytes[index] != colon {
                        index += 1
                    }
                    values.append(decodeParameterValue(bytes[start..<index]))
                }
            } while index < bytes.count && bytes[index] == comma
            parameters.append(ContentLine.Parameter(name: parameterName, values: values))
        }
        guard index < bytes.count, bytes[index] == colon else {
            throw unexpected("has a character that does not belong in a property name or parameter before its colon")
        }
        let value = String(decoding: bytes[(index + 1)...], as: UTF8.self)
        return ContentLine(group: group, name: name.uppercased(), parameters: parameters, value: value)
    }

    /// RFC 6868: `^n` is a line break, `^'` a double quote, `^^` a caret; any other `^` stays.
    private static func decodeParameterValue(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(caret) else { return String(decoding: bytes, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == caret, index + 1 < bytes.endIndex {
                switch bytes[index + 1] {
                case 0x6E, 0x4E: out.append(lf); index += 2; continue
                case 0x27: out.append(quote); index += 2; continue
                case caret: out.append(caret); index += 2; continue
                default: break
                }
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Writing

    private static func logicalBytes(_ line: ContentLine) -> [UInt8] {
        var bytes: [UInt8] = []
        if let group = line.group, !group.isEmpty {
            bytes.append(contentsOf: group.utf8)
            bytes.append(dot)
        }
        bytes.append(contentsOf: line.name.utf8)
        for parameter in line.parameters {
            bytes.append(semicolon)
            bytes.append(contentsOf: parameter.name.utf8)
            bytes.append(equals)
            for (position, value) in parameter.values.enumerated() {
                if position > 0 { bytes.append(comma) }
                bytes.append(contentsOf: encodeParameterValue(value))
            }
        }
        bytes.append(colon)
        for byte in line.value.utf8 {
            switch byte {
            case cr: continue
            case lf: bytes.append(contentsOf: [0x5C, 0x6E])
            default: bytes.append(byte)
            }
        }
        return bytes
    }

    private static func encodeParameterValue(_ value: String) -> [UInt8] {
        var encoded: [UInt8] = []
        var needsQuotes = false
        for byte in value.utf8 {
            switch byte {
            case caret: encoded.append(contentsOf: [caret, caret])
            case quote: encoded.append(contentsOf: [caret, 0x27])
            case lf: encoded.append(contentsOf: [caret, 0x6E])
            case cr: continue
            case colon, semicolon, comma:
                needsQuotes = true
                encoded.append(byte)
            default: encoded.append(byte)
            }
        }
        return needsQuotes ? [quote] + encoded + [quote] : encoded
    }

    /// Appends `line` folded at 75 octets (a continuation's leading space counts), never inside
    /// a UTF-8 sequence, with CRLF after each physical line.
    private static func fold(_ line: [UInt8], into out: inout [UInt8]) {
        var start = 0
        var first = true
        repeat {
            let room = first ? 75 : 74
            var end = min(start + room, line.count)
            // Back off to the first byte of a UTF-8 sequence (continuation bytes are 10xxxxxx).
            while end < line.count, end > start, line[end] & 0xC0 == 0x80 { end -= 1 }
            if !first { out.append(space) }
            out.append(contentsOf: line[start..<end])
            out.append(contentsOf: [cr, lf])
            start = end
            first = false
        } while start < line.count
    }
}

extension Int {
    /// "10,000": a count as a sentence shows it, the same on every platform and locale.
    var withThousandsSeparators: String {
        let digits = String(self.magnitude)
        var out = ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return self < 0 ? "-" + out : out
    }
}
