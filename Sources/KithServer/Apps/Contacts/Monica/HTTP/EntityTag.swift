import Hummingbird
import KithCore

/// The version of one `/api` object, as a client sends it back to say what it saw (RFC 9110
/// §8.8.3): the `ETag` of every answer that is one object, checked against `If-Match` on a change.
/// Made of the row's id and update time. Every change moves that time forward, by a millisecond
/// when the clock has not (`MonicaTableStore.update`), so two versions of a row never share a tag.
///
/// Strong, not weak: `If-Match` compares strongly (§13.1.1), so a weak tag could never match. It
/// versions the stored object a PUT replaces, not every byte around it: a contact's answer also
/// shows its tags and counts, an address's its contact's name, and those change without it.
struct EntityTag: Sendable, Equatable {
    /// Between the quotes.
    let opaque: String

    init(_ record: some MonicaRecord) { opaque = "\(record.id)-\(record.updatedAt ?? 0)" }

    /// As the `ETag` header carries it.
    var header: String { "\"\(opaque)\"" }
}

/// `If-Match` on a PUT, PATCH or DELETE: the versions of the object the writer saw. The change is
/// made only while the object is still one of them, else refused with 412 and nothing changes.
/// The repository checks it in the change's own transaction, with the row locked
/// (`MonicaTableStore.check`), so no other change can land between the check and the write.
struct IfMatch: Sendable, Equatable {
    /// The strong tags listed, without quotes; nil for `*` (any current version).
    let tags: [String]?

    /// Refused: the object changed since the writer read it.
    static let changed = MonicaError(
        .preconditionFailed, code: 43,
        message:
            "Someone changed this after you loaded it (in another tab or on another device), so your change was not saved. Load it again to see their change."
    )

    static let malformed = MonicaError(
        .badRequest, code: 41,
        message: "The If-Match header must be * or a list of quoted entity tags, as the ETag header gives them.")

    /// The request's `If-Match`; nil when it has none. Not `*` or a list of entity tags: 400.
    static func read(_ request: Request) throws -> IfMatch? {
        let values = request.headers[values: .ifMatch]
        guard !values.isEmpty else { return nil }
        let text = values.joined(separator: ",").trimmingCharacters(in: .whitespaces)
        if text == "*" { return IfMatch(tags: nil) }
        guard let tags = parse(text[...]) else { throw malformed }
        return IfMatch(tags: tags)
    }

    /// Refuses a change to `record` (the object as it is now) that the writer did not see. Nothing
    /// to check when the object is not there: the change's own lookup answers that (404 first,
    /// as RFC 9110 §13.2.1 has it).
    func check(_ record: (some MonicaRecord)?) throws {
        guard let record, let tags else { return }
        if !tags.contains(EntityTag(record).opaque) { throw Self.changed }
    }

    /// `#entity-tag`: tags separated by commas and optional spaces. A weak tag (`W/"…"`) is read
    /// but kept out: it never matches strongly. nil when the text is anything else.
    static func parse(_ text: Substring) -> [String]? {
        var rest = text
        var tags: [String] = []
        var sawTag = false
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { return sawTag ? tags : nil }
            if rest.first == "," {
                rest = rest.dropFirst()
                continue
            }
            let weak = rest.hasPrefix("W/")
            if weak { rest = rest.dropFirst(2) }
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { return nil }
            let opaque = rest[rest.index(after: rest.startIndex)..<close]
            // etagc: visible characters but the quote, and obs-text.
            guard
                opaque.unicodeScalars.allSatisfy({
                    $0.value == 0x21 || (0x23...0x7E).contains($0.value) || $0.value >= 0x80
                })
            else { return nil }
            if !weak { tags.append(String(opaque)) }
            sawTag = true
            rest = rest[rest.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            guard rest.isEmpty || rest.first == "," else { return nil }
        }
    }
}
