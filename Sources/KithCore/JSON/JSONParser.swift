/// JSON text read straight into a `JSONTree`: objects keep their keys in the order written, numbers
/// without a fraction or exponent that fit are `.int`, others `.double`. Foundation's decoder reads
/// a `JSONTree` by trying each kind of value in turn (five failed attempts before an object):
/// for every stored record the server loads and every body `/api` reads.
extension JSONText.Reader {
    /// How deeply arrays and objects may nest: deeper text is refused, not recursed into.
    static let maxDepth = 512

    /// The one value the text holds; nil when it is not JSON (or nests too deeply, or holds a
    /// number no Double can hold).
    mutating func document() -> JSONTree? {
        guard let value = value(depth: 0), atEnd else { return nil }
        return value
    }

    mutating func value(depth: Int) -> JSONTree? {
        guard depth < Self.maxDepth, let next = peek() else { return nil }
        switch next {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string().map(JSONTree.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number()
        }
    }

    private mutating func object(depth: Int) -> JSONTree? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var object = JSONObject()
        if take(UInt8(ascii: "}")) { return .object(object) }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), let member = value(depth: depth + 1) else { return nil }
            if refusesDuplicateKeys, object[key] != nil { return nil }
            object[key] = member
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}")) ? .object(object) : nil
    }

    private mutating func array(depth: Int) -> JSONTree? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var items: [JSONTree] = []
        if take(UInt8(ascii: "]")) { return .array(items) }
        repeat {
            guard let item = value(depth: depth + 1) else { return nil }
            items.append(item)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? .array(items) : nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        position += count
        return true
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as JSON has it.
    private mutating func number() -> JSONTree? {
        let start = position
        func digits() -> Bool {
            let first = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position > first
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        guard digits() else { return nil }
        if bytes[integerStart] == UInt8(ascii: "0"), position - integerStart > 1 { return nil }
        var isInteger = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() else { return nil }
            isInteger = false
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() else { return nil }
            isInteger = false
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        guard let double = Double(text), double.isFinite else { return nil }
        return .double(double)
    }

    private mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }
}

extension JSONTree {
    /// Parses JSON text read from storage or a request; nil when it is not JSON. A key written twice
    /// in one object keeps its last value (as Monica's PHP reads it), or, `refusingDuplicateKeys`,
    /// makes the text unreadable: Foundation's decoder keeps the first, and a reader that must read
    /// what it reads leaves such text to it.
    public static func parse<Bytes: Collection>(bytes: Bytes, refusingDuplicateKeys: Bool = false) -> JSONTree?
    where Bytes.Element == UInt8 {
        var reader = JSONText.Reader(bytes: Array(bytes))
        reader.refusesDuplicateKeys = refusingDuplicateKeys
        return reader.document()
    }

    /// Parses a JSON text; nil when it is not JSON.
    public static func parse(text: String) -> JSONTree? { parse(bytes: text.utf8) }
}
