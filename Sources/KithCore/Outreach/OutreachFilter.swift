import Foundation

/// What a year's list shows: people whose name or enterprise holds the search text (ignoring case
/// and accents: "muller" finds "Müller"), delivered or not. The web page, the command line and
/// `OutreachStore` filter with this one rule, so a search finds the same people everywhere.
public struct OutreachFilter: Sendable, Hashable, Codable {
    public enum Delivery: String, Sendable, Hashable, Codable, CaseIterable {
        case all
        case delivered
        case notDelivered = "not-delivered"
    }

    public var text: String
    public var delivery: Delivery

    public init(text: String = "", delivery: Delivery = .all) {
        self.text = text
        self.delivery = delivery
    }

    /// Whether it shows everyone.
    public var isEmpty: Bool { words.isEmpty && delivery == .all }

    /// The search's words, folded; a person matches when each word is in their first name, last
    /// name or enterprise ("ada analytical" finds Ada Lovelace of Analytical Engines).
    var words: [String] {
        text.split(whereSeparator: \.isWhitespace).map { OutreachBook.NameKey.folded(String($0)) }
    }

    public func matches(_ person: OutreachContact) -> Bool { matcher()(person) }

    /// The people of `people` this filter shows, in their order (all of them when it is empty).
    public func shown(_ people: [OutreachContact]) -> [OutreachContact] {
        isEmpty ? people : people.filter(matcher())
    }

    /// The test, with the search folded once for a whole list.
    func matcher() -> (OutreachContact) -> Bool {
        let words = words
        let delivery = delivery
        return { person in
            switch delivery {
            case .all: break
            case .delivered: guard person.delivered else { return false }
            case .notDelivered: guard !person.delivered else { return false }
            }
            guard !words.isEmpty else { return true }
            let haystack = [person.firstName, person.lastName, person.enterpriseName]
                .map(OutreachBook.NameKey.folded).joined(separator: "\n")
            return words.allSatisfy { haystack.contains($0) }
        }
    }
}

extension OutreachBook {
    /// The people of a year the filter shows, by last name then first name.
    public func people(in year: UUID, matching filter: OutreachFilter) -> [OutreachContact] {
        filter.shown(people(in: year))
    }
}
