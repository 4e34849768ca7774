import Foundation

/// What an import copies, in the order it copies them: what others point at first (genders,
/// companies, contacts), then what hangs off contacts, links between contacts last.
public enum ImportedKind: String, CaseIterable, Sendable, Codable {
    case genders, contactFieldTypes, activityTypes, companies, places, contacts, contactFields, addresses,
        contactDetails
    case relationships, introductions, documents, photos, avatars, notes, tasks, gifts, calls, debts, pets
    case conversations, messages, activities, lifeEvents, reminders, occupations, journalEntries, dayRatings
    case me

    /// How a person reads it: "contact field types", "journal entries".
    public var words: String {
        switch self {
        case .contactFieldTypes: "contact field types"
        case .activityTypes: "activity types"
        case .contactFields: "contact fields"
        case .contactDetails: "sets of tags, work and food preferences"
        case .lifeEvents: "life events"
        case .journalEntries: "journal entries"
        case .dayRatings: "day ratings"
        case .introductions: "how-you-met stories"
        case .me: "your own contact"
        default: rawValue
        }
    }

    /// One of them: "contact field type", "company".
    public var singular: String {
        switch self {
        case .companies: "company"
        case .addresses: "address"
        case .activities: "activity"
        case .journalEntries: "journal entry"
        case .contactDetails: "set of tags, work and food preferences"
        case .introductions: "how-you-met story"
        case .me: "your own contact"
        default: String(words.dropLast())
        }
    }

    /// "1 company", "3 companies".
    public func count(_ number: Int) -> String { "\(number) \(number == 1 ? singular : words)" }
}

/// Where an import is, for a progress bar: `done` of `total` objects of one kind (`total` is nil
/// when the source does not say), or a wait the source or target asked for.
public enum MonicaImportProgress: Sendable, Equatable {
    case copying(ImportedKind, done: Int, total: Int?)
    case waiting(seconds: Int)
}

/// What an import did: per kind, how many objects it made now and how many an earlier run had
/// made, and each object the target refused, with the target's reason.
public struct MonicaImportSummary: Sendable, Equatable, Codable {
    public struct Count: Sendable, Equatable, Codable {
        public let kind: ImportedKind
        public var copied = 0
        public var alreadyCopied = 0
    }

    public struct Refusal: Sendable, Equatable, Codable {
        public let kind: ImportedKind
        /// The object's id on the source server.
        public let sourceID: Int
        /// What a person recognises it by (a contact's name, a note's first words).
        public let name: String
        public let reason: String
    }

    public private(set) var counts: [Count] = ImportedKind.allCases.map { Count(kind: $0) }
    public internal(set) var refused: [Refusal] = []

    public init() {}

    public func count(_ kind: ImportedKind) -> Count { counts.first { $0.kind == kind } ?? Count(kind: kind) }

    public var copied: Int { counts.reduce(0) { $0 + $1.copied } }
    public var alreadyCopied: Int { counts.reduce(0) { $0 + $1.alreadyCopied } }

    mutating func add(_ kind: ImportedKind, copied: Bool) {
        guard let index = counts.firstIndex(where: { $0.kind == kind }) else { return }
        if copied { counts[index].copied += 1 } else { counts[index].alreadyCopied += 1 }
    }
}
