import Foundation
import KithCore

/// What the list says after a form sent the person back to it: a key from a fixed list and the
/// id of the person or year it is about (`?notice=added&person=ID`), so a link can't put text of
/// its own on the page (decision 9); the names come from the person's own data.
struct OutreachNotice {
    enum Kind: String {
        case added, saved
        case yearAdded = "year-added"
        case yearRenamed = "year-renamed"
        case undoneDeliveries = "undone-deliveries"
        case undoneDeletion = "undone-deletion"
    }

    let kind: Kind
    let person: UUID?
    let year: UUID?
    /// The fields this save (of a person, or a year's name) replaced after someone else had
    /// changed them (names from a fixed list; anything else in the address is ignored).
    let replaced: [String]
    /// How many people an undo put back.
    let count: Int

    /// The notice a list address carries, if any.
    init?(_ query: QueryParameters) {
        guard let key = query.get("notice"), let kind = Kind(rawValue: key) else { return nil }
        self.kind = kind
        person = query.get("person").flatMap(UUID.init(text:))
        year = query.get("year").flatMap(UUID.init(text:))
        replaced = (query.get("replaced") ?? "").split(separator: ",").compactMap { Self.fieldNames[String($0)] }
        count = max(0, query.get("count").flatMap(Int.init) ?? 0)
    }

    /// The fields a save may replace (a person's, a year's name), as a notice names them.
    static let fieldNames = [
        OutreachFields.firstName: "first name", OutreachFields.lastName: "last name",
        OutreachFields.enterpriseName: "enterprise", OutreachFields.comments: "comments", OutreachFields.name: "name",
    ]

    /// What the save replaced, as a sentence after the first ("" when nothing).
    private var replacedSentence: String {
        guard !replaced.isEmpty else { return "" }
        return
            " Your \(replaced.joined(separator: " and ")) replaced a change made elsewhere after you opened the page."
    }

    /// The sentence, or nil when what it is about is not (or no longer) in the book.
    func text(in book: OutreachBook) -> String? {
        switch kind {
        case .added, .saved:
            guard let person = person.flatMap(book.contact) else { return nil }
            guard kind == .added else { return "Saved \(person.fullName)." + replacedSentence }
            return "Added \(person.fullName)" + (book.year(person.yearId).map { " to \($0.name)." } ?? ".")
        case .yearAdded:
            return year.flatMap(book.year).map { "Added the year \($0.name)." }
        case .yearRenamed:
            return year.flatMap(book.year).map { "Renamed the year to \($0.name)." + replacedSentence }
        case .undoneDeliveries, .undoneDeletion:
            return OutreachUndo.undoneSentence(count, deletion: kind == .undoneDeletion)
        }
    }
}

extension OutreachImport {
    /// The most skipped lines an address lists; the page says how many more there were.
    static let skippedInAddress = 50

    /// What an import did, in the list's address (`added=2&updated=1&unchanged=5`, and the skipped
    /// lines as `skipped=4:missing-lastName,9:delivered` with `skippedCount`): numbers and codes
    /// only, so a link can't put words of its own on the page.
    var query: String {
        var query = "added=\(added)&updated=\(updated)&unchanged=\(unchanged)"
        if !skipped.isEmpty {
            let listed = skipped.prefix(Self.skippedInAddress).map { "\($0.line):\($0.reason.code)" }
            query += "&skipped=" + listed.joined(separator: ",") + "&skippedCount=\(skipped.count)"
        }
        return query
    }

    /// The import an address reports, if it reports one.
    init?(query: QueryParameters) {
        guard let added = query.get("added").flatMap(Int.init), added >= 0 else { return nil }
        let count = { (name: String) in max(0, query.get(name).flatMap(Int.init) ?? 0) }
        let skipped = (query.get("skipped") ?? "").split(separator: ",").prefix(Self.skippedInAddress).compactMap {
            entry -> OutreachSkippedLine? in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let line = Int(parts[0]), line > 0,
                let reason = OutreachSkippedLine.Reason(code: parts[1])
            else { return nil }
            return OutreachSkippedLine(line: line, reason: reason)
        }
        self.init(added: added, updated: count("updated"), unchanged: count("unchanged"), skipped: skipped)
        skippedCount = max(skipped.count, count("skippedCount"))
    }
}
