import Foundation

/// A `multipart/form-data` body (RFC 7578): the parts an HTML form, curl or an HTTP library sends,
/// in order. The server reads uploads with it; KithKit writes them.
///
/// Reading takes the CRLF line ends RFC 2046 prescribes, and bare LF when a body uses it (some
/// hand-rolled clients and scripts do). The first boundary line decides which one a body uses, and
/// only that one ends a part, so a part's bytes come out exactly as sent either way: in a CRLF body,
/// a file's own `\n--boundary` (which a boundary chosen well never matches anyway) stays in the file.
/// The preamble before the first boundary line and the epilogue after the last are ignored.
public struct MultipartFormData: Sendable, Equatable {
    /// One part: a form field, or a file when it has a filename.
    public struct Part: Sendable, Hashable {
        /// The `name` parameter of its `Content-Disposition`.
        public var name: String
        /// The file's name as the sender gave it (`filename*` when it sent one, else `filename`,
        /// with no percent-decoding: browsers and curl write `"` as `%22`): nil for a plain field,
        /// empty when a browser's file input had no file chosen. Never a path to use as is.
        public var filename: String?
        /// Its `Content-Type` header as sent; nil when it had none or an empty one (RFC 7578 reads
        /// that as `text/plain`). The sender's claim: `FileSniffer` says what a file is.
        public var contentType: String?
        /// Exactly the bytes between the part's headers and the next boundary line.
        public var body: [UInt8]

        public init(name: String, filename: String? = nil, contentType: String? = nil, body: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.body = body
        }

        /// A text field, as a form sends it: no filename, no type, the text in UTF-8.
        public init(name: String, value: String) {
            self.init(name: name, body: Array(value.utf8))
        }
    }

    public var parts: [Part]

    public init(parts: [Part]) { self.parts = parts }

    /// The most parts a body may have: a form has a few dozen, and each part costs a header parse
    /// and an allocation whatever its size.
    public static let maximumParts = 1000
    /// The most bytes a part's headers may take, their blank line included. A browser writes about
    /// 150; a long non-ASCII filename written twice (`filename` and `filename*`) fits many times over.
    public static let maximumHeaderBytes = 8 * 1024
    /// RFC 2046's longest boundary.
    public static let maximumBoundaryLength = 70

    /// The boundary a `multipart/form-data` Content-Type names (`multipart/form-data;
    /// boundary=…`, quoted or not, parameter names in any case), unvalidated so that
    /// `init(parsing:boundary:)` can say what is wrong with it. Nil for another media type or
    /// without a boundary.
    public static func boundary(fromContentType contentType: String) -> String? {
        let (type, parameters) = HeaderParameters.parse(Array(contentType.utf8))
        guard type == "multipart/form-data", let boundary = parameters["boundary"], !boundary.isEmpty else {
            return nil
        }
        return boundary
    }

    /// The Content-Type header for a body `encoded(boundary:)` writes.
    public static func contentType(boundary: String) -> String {
        // Quoted when it has a character a bare token can't (RFC 2045's tspecials, or a space).
        let tspecials = Array(#"()<>@,;:\"/[]?= "#.utf8)
        let needsQuotes = boundary.utf8.contains { tspecials.contains($0) }
        guard needsQuotes else { return "multipart/form-data; boundary=\(boundary)" }
        return "multipart/form-data; boundary=\"\(Self.escapedQuotedText(boundary))\""
    }

    /// A fresh boundary: 128 random bits from the system's CSPRNG, so no file can contain it by
    /// chance and no one can make one that does.
    public static func makeBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return "KithFormBoundary" + String((0..<32).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
    }

    // MARK: Reading

    /// Reads a body, all of it: a body cut short is refused (`missingClosingDelimiter`) rather than
    /// read as a shorter file. Linear in the body's size whatever its bytes.
    public init(parsing body: some Collection<UInt8>, boundary: String) throws(MultipartError) {
        let bytes = boundary.utf8
        guard !bytes.isEmpty, bytes.allSatisfy({ (0x20...0x7E).contains($0) }), bytes.last != .space else {
            throw .invalidBoundary
        }
        guard bytes.count <= Self.maximumBoundaryLength else { throw .boundaryTooLong(length: bytes.count) }
        parts = try MultipartReader(body: Array(body), dashBoundary: Array("--\(boundary)".utf8)).readParts()
    }

    /// The UTF-8 text of the first part named `name` that is a field (has no filename); bytes that
    /// are not UTF-8 read as U+FFFD.
    public func field(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }.map { String(decoding: $0.body, as: UTF8.self) }
    }

    /// The first part named `name` that is a file. A browser sends a file input with no file chosen
    /// as a part with an empty filename and no bytes: that is no file.
    public func file(_ name: String) -> Part? {
        parts.first { $0.name == name && !($0.filename ?? "").isEmpty }
    }

    // MARK: Writing

    /// The body, each part as browsers write it, with CRLF line ends. `boundary` must appear in no
    /// part: `makeBoundary()` gives one that can't. A filename that is not plain printable ASCII is
    /// written twice: `filename="…"` with an ASCII stand-in (accents dropped, other characters as
    /// `_`) for readers that know no better, and `filename*=UTF-8''…` (RFC 8187) with every
    /// character, which this reader and most servers prefer. RFC 7578 §4.2 advises against
    /// `filename*`; the stand-in keeps a reader that follows it working, with a plainer name.
    public func encoded(boundary: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(parts.reduce(boundary.utf8.count + 8) { $0 + $1.body.count + boundary.utf8.count + 160 })
        for part in parts {
            output += "--\(boundary)\r\n".utf8
            output += "Content-Disposition: form-data; name=\"\(Self.escapedQuotedText(part.name))\"".utf8
            if let filename = part.filename { output += Self.filenameParameters(filename).utf8 }
            output += "\r\n".utf8
            if let contentType = part.contentType, !contentType.isEmpty {
                // A line break in the type would start a header of the caller's making.
                output += "Content-Type: \(contentType.filter { $0 != "\r" && $0 != "\n" && $0 != "\r\n" })\r\n".utf8
            }
            output += "\r\n".utf8
            output += part.body
            output += "\r\n".utf8
        }
        output += "--\(boundary)--\r\n".utf8
        return output
    }

    /// `text` inside double quotes: `"` and `\` escaped as RFC 2045's quoted-pairs (which this
    /// reader and the servers we know undo), CR and LF as `%0D` and `%0A` as browsers write them,
    /// since no escape keeps a line break from ending the header.
    private static func escapedQuotedText(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\": escaped += "\\\(scalar)"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    private static func filenameParameters(_ filename: String) -> String {
        let isPlain = filename.unicodeScalars.allSatisfy { isPlainFilenameScalar($0) }
        guard !isPlain else { return "; filename=\"\(filename)\"" }
        var fallback = ""
        for scalar in filename.decomposedStringWithCanonicalMapping.unicodeScalars {
            if isPlainFilenameScalar(scalar) {
                fallback.unicodeScalars.append(scalar)
            } else if scalar.properties.generalCategory != .nonspacingMark {
                // Decomposed, "é" is "e" and a combining accent: the accent goes, the letter stays.
                fallback += "_"
            }
        }
        var encoded = ""
        for byte in filename.utf8 {
            if isAttributeCharacter(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return "; filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
    }

    /// Printable ASCII but `"` and `\`: what every reader takes inside quotes without escapes.
    private static func isPlainFilenameScalar(_ scalar: Unicode.Scalar) -> Bool {
        (0x20...0x7E).contains(scalar.value) && scalar != "\"" && scalar != "\\"
    }

    /// RFC 8187's attr-char: what `filename*` may carry without percent-encoding.
    private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return Array("!#$&+-.^_`|~".utf8).contains(byte)
        }
    }
}

/// Why a `multipart/form-data` body can't be read. `description` is a phrase to follow "the body
/// cannot be read: "; parts count from 1.
public enum MultipartError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The boundary is empty, ends in a space, or has a character other than printable ASCII.
    case invalidBoundary
    /// The boundary is longer than RFC 2046's 70 characters.
    case boundaryTooLong(length: Int)
    /// No `--boundary` line opens a part: the body has none, or only the closing one.
    case noParts
    /// The body stops before its closing `--boundary--` line: it was cut short, and so may its last
    /// part be.
    case missingClosingDelimiter
    /// The part has no `Content-Disposition: form-data` header with a `name`.
    case missingName(part: Int)
    /// The part's headers run past `MultipartFormData.maximumHeaderBytes` without ending.
    case headerSectionTooLong(part: Int)
    /// No blank line ends the part's headers before the next boundary line.
    case unterminatedHeaders(part: Int)
    /// The part has a header line without a colon.
    case malformedHeaderLine(part: Int)
    /// The body has more than `MultipartFormData.maximumParts` parts.
    case tooManyParts

    public var description: String {
        switch self {
        case .invalidBoundary: "the boundary must be 1 to 70 printable ASCII characters, not ending in a space"
        case .boundaryTooLong(let length): "the boundary is \(length) characters long; RFC 2046 allows 70"
        case .noParts: "the body has no part (no --boundary line opens one)"
        case .missingClosingDelimiter: "the body ends before its closing --boundary-- line (it was cut short)"
        case .missingName(let part): "part \(part) has no Content-Disposition: form-data header with a name"
        case .headerSectionTooLong(let part):
            "the headers of part \(part) are longer than \(MultipartFormData.maximumHeaderBytes) bytes"
        case .unterminatedHeaders(let part): "no blank line ends the headers of part \(part)"
        case .malformedHeaderLine(let part): "part \(part) has a header line without a colon"
        case .tooManyParts: "the body has more than \(MultipartFormData.maximumParts) parts"
        }
    }
}

/// One pass over a body: find each boundary line, read the headers after it, take the bytes up to
/// the next one.
private struct MultipartReader {
    let body: [UInt8]
    /// `--` and the boundary.
    let dashBoundary: [UInt8]

    func readParts() throws(MultipartError) -> [MultipartFormData.Part] {
        guard let first = firstBoundaryLine() else { throw .noParts }
        // Every later boundary line starts a line: it follows the line end the first one used.
        let delimiter = first.lineEnd + dashBoundary
        var partStart = first.partStart
        var parts: [MultipartFormData.Part] = []
        while true {
            guard parts.count < MultipartFormData.maximumParts else { throw .tooManyParts }
            // From the line end before the part, so that a part with nothing in it, not even the
            // blank line, ends at once (and is refused for its missing name).
            let (partEnd, line) = try nextBoundaryLine(delimiter, from: partStart - first.lineEnd.count)
            parts.append(try part(partStart..<max(partStart, partEnd), number: parts.count + 1))
            switch line {
            case .closing: return parts
            case .opening(let nextStart, _): partStart = nextStart
            }
        }
    }

    private enum BoundaryLine {
        /// `--boundary` then optional spaces and a line end: a part starts at `partStart`.
        case opening(partStart: Int, lineEnd: [UInt8])
        /// `--boundary--`: the parts end; whatever follows is epilogue.
        case closing
    }

    /// The first boundary line: at the very start of the body, or at the start of a line after a
    /// preamble. Where its part starts, and the line end the body uses.
    private func firstBoundaryLine() -> (partStart: Int, lineEnd: [UInt8])? {
        let afterNewline = [UInt8.lineFeed] + dashBoundary
        var start = 0
        if !body.starts(with: dashBoundary) {
            guard let newline = firstIndex(of: afterNewline, from: 0) else { return nil }
            start = newline + 1
        }
        while true {
            switch boundaryLine(after: start + dashBoundary.count) {
            case .opening(let partStart, let lineEnd): return (partStart, lineEnd)
            case .closing: return nil
            case nil:
                guard let newline = firstIndex(of: afterNewline, from: start) else { return nil }
                start = newline + 1
            }
        }
    }

    /// The next line `delimiter` (a line end, `--`, the boundary) opens from `start`, and where the
    /// part before it ends.
    private func nextBoundaryLine(_ delimiter: [UInt8], from start: Int) throws(MultipartError)
        -> (partEnd: Int, line: BoundaryLine)
    {
        var searchStart = start
        while let found = firstIndex(of: delimiter, from: searchStart) {
            if let line = boundaryLine(after: found + delimiter.count) { return (found, line) }
            searchStart = found + 1
        }
        throw .missingClosingDelimiter
    }

    /// What follows `--boundary` at `index`: `--` closes; spaces or tabs (RFC 2046's transport
    /// padding) then CRLF or LF open a part. Anything else means it was no boundary line (a longer
    /// word that starts with the boundary).
    private func boundaryLine(after index: Int) -> BoundaryLine? {
        if index + 1 < body.count, body[index] == .hyphen, body[index + 1] == .hyphen { return .closing }
        var end = index
        while end < body.count, body[end] == .space || body[end] == .tab { end += 1 }
        if end < body.count, body[end] == .lineFeed { return .opening(partStart: end + 1, lineEnd: [.lineFeed]) }
        if end + 1 < body.count, body[end] == .carriageReturn, body[end + 1] == .lineFeed {
            return .opening(partStart: end + 2, lineEnd: [.carriageReturn, .lineFeed])
        }
        return nil
    }

    /// Where `pattern` first occurs from `start`. Linear in what it reads: the pattern's first byte
    /// (CR or LF) occurs nowhere else in it, since a boundary has neither, so a partial match never
    /// hides the start of another and each byte is compared a bounded number of times, however
    /// many near-misses a hostile body holds.
    private func firstIndex(of pattern: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, pattern.count <= body.count else { return nil }
        var index = start
        let lastStart = body.count - pattern.count
        while index <= lastStart {
            if body[index] == first {
                var matched = 1
                while matched < pattern.count, body[index + matched] == pattern[matched] { matched += 1 }
                if matched == pattern.count { return index }
                index += matched
            } else {
                index += 1
            }
        }
        return nil
    }

    private enum Header { case disposition, contentType, other }

    private func part(_ range: Range<Int>, number: Int) throws(MultipartError) -> MultipartFormData.Part {
        guard !range.isEmpty else { throw .missingName(part: number) }
        var disposition: [UInt8]?
        var contentType: [UInt8]?
        var current: Header?
        var lineStart = range.lowerBound
        let headerEnd = range.lowerBound + min(range.count, MultipartFormData.maximumHeaderBytes)
        while true {
            guard let newline = body[lineStart..<headerEnd].firstIndex(of: .lineFeed) else {
                throw headerEnd < range.upperBound
                    ? .headerSectionTooLong(part: number) : .unterminatedHeaders(part: number)
            }
            var lineEnd = newline
            if lineEnd > lineStart, body[lineEnd - 1] == .carriageReturn { lineEnd -= 1 }
            let line = body[lineStart..<lineEnd]
            lineStart = newline + 1
            guard let first = line.first else { break }
            if first == .space || first == .tab {
                // An obsolete folded line continues the header before it.
                switch current {
                case .disposition: disposition?.append(contentsOf: [.space] + Array(line.trimmed()))
                case .contentType: contentType?.append(contentsOf: [.space] + Array(line.trimmed()))
                case .other: break
                case nil: throw .malformedHeaderLine(part: number)
                }
                continue
            }
            guard let colon = line.firstIndex(of: .colon) else { throw .malformedHeaderLine(part: number) }
            let name = line[..<colon].trimmed()
            let value = Array(line[(colon + 1)...].trimmed())
            // The first of a repeated header counts.
            if name.equalsIgnoringCase("content-disposition") && disposition == nil {
                disposition = value
                current = .disposition
            } else if name.equalsIgnoringCase("content-type") && contentType == nil {
                contentType = value
                current = .contentType
            } else {
                current = .other
            }
        }
        guard let disposition else { throw .missingName(part: number) }
        let (type, parameters) = HeaderParameters.parse(disposition)
        guard type == "form-data", let name = parameters["name"] else { throw .missingName(part: number) }
        return MultipartFormData.Part(
            name: name,
            filename: parameters["filename*"].flatMap(HeaderParameters.extendedValue) ?? parameters["filename"],
            contentType: contentType.flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) },
            body: Array(body[lineStart..<range.upperBound])
        )
    }
}

/// A header value's `type; name=value; name="quoted value"` form, as Content-Type and
/// Content-Disposition write it.
private enum HeaderParameters {
    /// The lowercased type and the parameters by lowercased name; the first of a repeated
    /// parameter counts. Inside quotes, `\"` and `\\` are escapes and any other backslash is kept:
    /// old Internet Explorer sent Windows paths unescaped (`C:\dir\a.pdf`). Bytes that are not
    /// UTF-8 read as U+FFFD.
    static func parse(_ value: [UInt8]) -> (type: String, parameters: [String: String]) {
        var index = value.firstIndex(of: .semicolon) ?? value.count
        let type = String(decoding: value[..<index].trimmed().map(\.asciiLowercased), as: UTF8.self)
        var parameters: [String: String] = [:]
        while index < value.count {
            index += 1  // past the `;`
            let nameStart = index
            while index < value.count, value[index] != .equals, value[index] != .semicolon { index += 1 }
            let name = String(decoding: value[nameStart..<index].trimmed().map(\.asciiLowercased), as: UTF8.self)
            guard index < value.count, value[index] == .equals else { continue }
            index += 1
            while index < value.count, value[index] == .space || value[index] == .tab { index += 1 }
            var text: [UInt8] = []
            if index < value.count, value[index] == .quote {
                index += 1
                while index < value.count, value[index] != .quote {
                    if value[index] == .backslash, index + 1 < value.count,
                        value[index + 1] == .quote || value[index + 1] == .backslash
                    {
                        index += 1
                    }
                    text.append(value[index])
                    index += 1
                }
                // Anything between the closing quote and the next `;` is not part of the value.
                while index < value.count, value[index] != .semicolon { index += 1 }
            } else {
                let start = index
                while index < value.count, value[index] != .semicolon { index += 1 }
                text = Array(value[start..<index].trimmed())
            }
            if parameters[name] == nil { parameters[name] = String(decoding: text, as: UTF8.self) }
        }
        return (type, parameters)
    }

    /// An RFC 8187 extended value (`UTF-8''r%C3%A9sum%C3%A9.pdf`, or in ISO-8859-1); nil for
    /// another charset, a bad escape or bytes that are not UTF-8, so the plain parameter counts.
    static func extendedValue(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard let charsetEnd = bytes.firstIndex(of: .apostrophe),
            let languageEnd = bytes[(charsetEnd + 1)...].firstIndex(of: .apostrophe)
        else { return nil }
        var decoded: [UInt8] = []
        var index = languageEnd + 1
        while index < bytes.count {
            if bytes[index] == .percent {
                guard index + 2 < bytes.count, let high = bytes[index + 1].hexValue, let low = bytes[index + 2].hexValue
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        switch String(decoding: bytes[..<charsetEnd].map(\.asciiLowercased), as: UTF8.self) {
        case "utf-8":
            let value = String(decoding: decoded, as: UTF8.self)
            return value.utf8.elementsEqual(decoded) ? value : nil
        case "iso-8859-1":
            return String(String.UnicodeScalarView(decoded.map { Unicode.Scalar($0) }))
        default: return nil
        }
    }
}

extension UInt8 {
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let lineFeed = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let quote = UInt8(ascii: "\"")
    fileprivate static let percent = UInt8(ascii: "%")
    fileprivate static let apostrophe = UInt8(ascii: "'")
    fileprivate static let hyphen = UInt8(ascii: "-")
    fileprivate static let colon = UInt8(ascii: ":")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let backslash = UInt8(ascii: "\\")

    fileprivate var asciiLowercased: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }

    fileprivate var hexValue: UInt8? {
        switch self {
        case 0x30...0x39: self - 0x30
        case 0x41...0x46: self - 0x41 + 10
        case 0x61...0x66: self - 0x61 + 10
        default: nil
        }
    }
}

extension ArraySlice<UInt8> {
    /// Without spaces and tabs at either end.
    fileprivate func trimmed() -> ArraySlice<UInt8> {
        var slice = self
        while let first = slice.first, first == .space || first == .tab { slice.removeFirst() }
        while let last = slice.last, last == .space || last == .tab { slice.removeLast() }
        return slice
    }

    fileprivate func equalsIgnoringCase(_ lowercased: String) -> Bool {
        elementsEqual(lowercased.utf8) { $0.asciiLowercased == $1 }
    }
}
