import Foundation

/// Kith's own reader of WebDAV request bodies: elements, attributes, namespaces, text, CDATA,
/// comments and the five predefined entities plus character references. A document type
/// declaration is refused outright, so no external entity is ever fetched and no entity expands
/// (a "billion laughs" body is a 400 in microseconds). WebDAV bodies are small property lists:
/// depth and element count are bounded, and the reader is one pass over the bytes.
struct XMLReader {
    static let maximumDepth = 32
    static let maximumElements = 20_000

    struct Failure: Error, Sendable, Equatable {
        let message: String
    }

    /// The document's root element.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> DAVXMLElement {
        var reader = XMLReader(bytes: bytes)
        return try reader.document()
    }

    private let bytes: [UInt8]
    private var index = 0
    private var elements = 0

    private init(bytes: [UInt8]) {
        // A UTF-8 byte order mark is allowed before the declaration.
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private mutating func document() throws(Failure) -> DAVXMLElement {
        try skipMisc()
        guard peek() == UInt8(ascii: "<") else { throw Failure(message: "The body is not XML.") }
        let root = try element(depth: 0, namespaces: ["xml": "http://www.w3.org/XML/1998/namespace"])
        try skipMisc()
        guard index == bytes.count else { throw Failure(message: "The XML has something after its root element.") }
        return root
    }

    /// Whitespace, comments, processing instructions (the `<?xml …?>` declaration among them).
    private mutating func skipMisc() throws(Failure) {
        while index < bytes.count {
            if isSpace(bytes[index]) {
                index += 1
            } else if starts("<?") {
                try skip(past: "?>")
            } else if starts("<!--") {
                try skip(past: "-->")
            } else if starts("<!") {
                throw Failure(
                    message: "Document type declarations are not accepted in a WebDAV body (no DTD, no entities).")
            } else {
                return
            }
        }
    }

    private mutating func element(depth: Int, namespaces: [String: String]) throws(Failure) -> DAVXMLElement {
        guard depth < Self.maximumDepth else { throw Failure(message: "The XML is nested too deeply.") }
        elements += 1
        guard elements <= Self.maximumElements else { throw Failure(message: "The XML has too many elements.") }
        index += 1  // "<"
        let qualified = try name()
        var rawAttributes: [(String, String)] = []
        var selfClosing = false
        while true {
            skipSpace()
            guard let byte = peek() else { throw Failure(message: "The XML ends inside the tag <\(qualified)>.") }
            if byte == UInt8(ascii: "/") {
                guard peek(at: index + 1) == UInt8(ascii: ">") else { throw malformed(qualified) }
                index += 2
                selfClosing = true
                break
            }
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            let attribute = try name()
            skipSpace()
            guard peek() == UInt8(ascii: "=") else { throw malformed(qualified) }
            index += 1
            skipSpace()
            guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw malformed(qualified)
            }
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote {
                guard bytes[index] != UInt8(ascii: "<") else { throw malformed(qualified) }
                index += 1
            }
            guard index < bytes.count else { throw malformed(qualified) }
            let value = try decodeText(bytes[start..<index])
            index += 1
            rawAttributes.append((attribute, value))
        }
        var scope = namespaces
        var attributes: [String: String] = [:]
        for (key, value) in rawAttributes {
            if key == "xmlns" {
                scope[""] = value
            } else if key.hasPrefix("xmlns:") {
                scope[String(key.dropFirst(6))] = value
            } else {
                attributes[key] = value
            }
        }
        var element = DAVXMLElement(name: try resolve(qualified, in: scope), attributes: attributes)
        if selfClosing { return element }
        var text: [UInt8] = []
        while true {
            guard index < bytes.count else { throw Failure(message: "The XML ends before </\(qualified)>.") }
            if starts("</") {
                index += 2
                let closing = try name()
                skipSpace()
                guard closing == qualified, peek() == UInt8(ascii: ">") else {
                    throw Failure(message: "The XML closes <\(qualified)> with </\(closing)>.")
                }
                index += 1
                element.text = try decodeText(text[...])
                return element
            } else if starts("<!--") {
                try skip(past: "-->")
            } else if starts("<![CDATA[") {
                index += 9
                let start = index
                try skip(past: "]]>")
                text.append(contentsOf: bytes[start..<(index - 3)])
            } else if starts("<?") {
                try skip(past: "?>")
            } else if starts("<!") {
                throw Failure(
                    message: "Document type declarations are not accepted in a WebDAV body (no DTD, no entities).")
            } else if bytes[index] == UInt8(ascii: "<") {
                element.children.append(try self.element(depth: depth + 1, namespaces: scope))
            } else {
                text.append(bytes[index])
                index += 1
            }
        }
    }

    private func resolve(_ qualified: String, in scope: [String: String]) throws(Failure) -> XMLName {
        if let colon = qualified.firstIndex(of: ":") {
            let prefix = String(qualified[..<colon])
            guard let namespace = scope[prefix] else {
                throw Failure(message: "The XML uses the prefix \"\(prefix)\" without declaring it.")
            }
            return XMLName(namespace, String(qualified[qualified.index(after: colon)...]))
        }
        return XMLName(scope[""] ?? "", qualified)
    }

    /// A name: letters, digits and `_ - . :`, and any non-ASCII byte (a UTF-8 letter).
    private mutating func name() throws(Failure) -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            let allowed =
                byte >= 0x80 || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
            guard allowed else { break }
            index += 1
        }
        guard index > start, let text = String(bytes: bytes[start..<index], encoding: .utf8) else {
            throw Failure(message: "The XML has a tag or attribute without a valid name.")
        }
        return text
    }

    /// Text with its references replaced; an unknown entity is an error (no DTD defines one).
    private func decodeText(_ raw: ArraySlice<UInt8>) throws(Failure) -> String {
        guard raw.contains(UInt8(ascii: "&")) else {
            guard let text = String(bytes: raw, encoding: .utf8) else {
                throw Failure(message: "The XML is not valid UTF-8.")
            }
            return text
        }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var position = raw.startIndex
        while position < raw.endIndex {
            let byte = raw[position]
            guard byte == UInt8(ascii: "&") else {
                out.append(byte)
                position += 1
                continue
            }
            guard let end = raw[position...].firstIndex(of: UInt8(ascii: ";")), end - position <= 12 else {
                throw Failure(message: "The XML has an unfinished \"&\" reference.")
            }
            let reference = String(decoding: raw[(position + 1)..<end], as: UTF8.self)
            out.append(contentsOf: try Self.resolveReference(reference).utf8)
            position = end + 1
        }
        guard let text = String(bytes: out, encoding: .utf8) else {
            throw Failure(message: "The XML is not valid UTF-8.")
        }
        return text
    }

    private static func resolveReference(_ reference: String) throws(Failure) -> String {
        switch reference {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            var number: UInt32?
            if reference.hasPrefix("#x") || reference.hasPrefix("#X") {
                number = UInt32(reference.dropFirst(2), radix: 16)
            } else if reference.hasPrefix("#") {
                number = UInt32(reference.dropFirst(), radix: 10)
            }
            guard let number, number != 0, let scalar = Unicode.Scalar(number) else {
                throw Failure(message: "The XML uses the entity \"&\(reference);\", which no WebDAV body may define.")
            }
            return String(Character(scalar))
        }
    }

    private func malformed(_ tag: String) -> Failure { Failure(message: "The XML tag <\(tag)> is malformed.") }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(at position: Int) -> UInt8? { position < bytes.count ? bytes[position] : nil }

    private func starts(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { literal in
            for offset in 0..<count where bytes[index + offset] != literal[offset] { return false }
            return true
        }
    }

    private mutating func skip(past literal: StaticString) throws(Failure) {
        while index < bytes.count {
            if starts(literal) {
                index += literal.utf8CodeUnitCount
                return
            }
            index += 1
        }
        throw Failure(message: "The XML ends inside a comment or a declaration.")
    }

    private mutating func skipSpace() {
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
