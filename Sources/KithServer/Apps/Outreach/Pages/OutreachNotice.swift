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
    }

    let kind: Kind
    let person: UUID?
    let year: UUID?

    /// The notice a list address carries, if any.
    init?(_ query: QueryParameters) {
        guard let key = query.get("notice"), let kind = Kind(rawValue: key) else { return nil }
        self.kind = kind
        person = query.get("person").flatMap(UUID.init(text:))
        year = query.get("year").flatMap(UUID.init(text:))
    }

    /// The sentence, or nil when what it is about is not (or no longer) in the book.
    func text(in book: OutreachBook) -> String? {
        switch kind {
        case .added, .saved:
            guard let person = person.flatMap(book.contact) else { return nil }
            guard kind == .added else { return "Saved \(person.fullName)." }
            return "Added \(person.fullName)" + (book.year(person.yearId).map { " to \($0.name)." } ?? ".")
        case .yearAdded:
            return year.flatMap(book.year).map { "Added the year \($0.name)." }
        case .yearRenamed:
            return year.flatMap(book.year).map { "Renamed the year to \($0.name)." }
        }
    }
}
