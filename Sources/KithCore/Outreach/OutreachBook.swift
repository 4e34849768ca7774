import Foundation

/// One account's outreach data as the screens show it: years newest first, a year's people by
/// name, progress, and which year to open. Devices (`OutreachStore`) and the server's web pages
/// both build one from their records, so both show the same thing in the same order.
public struct OutreachBook: Sendable, Equatable {
    /// Newest name first ("2026" before "2025").
    public let years: [OutreachYear]
    /// Every year's people, in no particular order; `people(in:)` orders them.
    public let contacts: [OutreachContact]
    /// The year last looked at, on any device (it syncs).
    public let lastViewedYearId: UUID?

    public init(years: [OutreachYear], contacts: [OutreachContact], lastViewedYearId: UUID?) {
        self.years = years.sorted(by: Self.newestFirst)
        self.contacts = contacts
        self.lastViewedYearId = lastViewedYearId
    }

    /// The book the live records of one account make (deleted ones are ignored).
    public init(records: [SyncRecord]) {
        var years: [OutreachYear] = []
        var contacts: [OutreachContact] = []
        var lastViewed: UUID?
        for record in records where !record.isDeleted {
            switch record.entity {
            case OutreachEntities.year.name: OutreachYear(id: record.id, fields: record.fields).map { years.append($0) }
            case OutreachEntities.contact.name:
                OutreachContact(id: record.id, fields: record.fields).map { contacts.append($0) }
            case OutreachEntities.preferences.name:
                lastViewed = record.fields["lastViewedYearId"]?.stringValue.flatMap(UUID.init(text:))
            default: break
            }
        }
        self.init(years: years, contacts: contacts, lastViewedYearId: lastViewed)
    }

    public func year(_ id: UUID) -> OutreachYear? { years.first { $0.id == id } }

    public func contact(_ id: UUID) -> OutreachContact? { contacts.first { $0.id == id } }

    /// The people of a year, by last name then first name, ignoring case and accents.
    public func people(in year: UUID) -> [OutreachContact] {
        Self.sortedByName(contacts.filter { $0.yearId == year })
    }

    /// Someone already in `year` with the same first and last name and enterprise (trimmed,
    /// ignoring case and accents): adding a person like that is probably a mistake, so the screens
    /// ask first. Nil when there is nobody like that.
    public func sameAs(first: String, last: String, enterprise: String, in year: UUID) -> OutreachContact? {
        let wanted = OutreachContact.sameKey(first: first, last: last, enterprise: enterprise)
        return people(in: year).first { $0.sameKey == wanted }
    }

    public func progress(of year: UUID) -> OutreachProgress {
        OutreachProgress(of: contacts.filter { $0.yearId == year })
    }

    /// Which year to show.
    public enum Selection: Sendable, Equatable {
        case year(OutreachYear)
        /// There is no year yet: create this one (the current calendar year) and show it.
        case create(name: String)
    }

    /// The year last viewed if it still exists, else the current calendar year's, else the newest;
    /// with no year at all, the current year is to be created.
    public func selection(now: Date) -> Selection {
        if let id = lastViewedYearId, let year = year(id) { return .year(year) }
        let current = Self.calendarYear(of: now)
        if let year = years.first(where: { $0.name == current }) ?? years.first { return .year(year) }
        return .create(name: current)
    }

    public static func calendarYear(of date: Date) -> String {
        String(Calendar(identifier: .gregorian).component(.year, from: date))
    }

    public static func newestFirst(_ a: OutreachYear, _ b: OutreachYear) -> Bool {
        a.name.compare(b.name, options: [.numeric, .caseInsensitive]) == .orderedDescending
    }

    /// By last name, then first name, ignoring case and accents (then by id, so the order is total).
    /// Each name is folded once, not at every comparison: this is what a 5,000-person page waits on.
    public static func sortedByName(_ people: [OutreachContact]) -> [OutreachContact] {
        let keyed = people.map { person in (key: NameKey(person), person: person) }
        return keyed.sorted { $0.key < $1.key }.map(\.person)
    }

    struct NameKey: Comparable {
        let last: String
        let first: String
        let id: String

        init(_ person: OutreachContact) {
            last = Self.folded(person.lastName)
            first = Self.folded(person.firstName)
            id = person.id.uuidString
        }

        static func folded(_ name: String) -> String {
            name.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }

        static func < (a: NameKey, b: NameKey) -> Bool { (a.last, a.first, a.id) < (b.last, b.first, b.id) }
    }
}

extension OutreachContact {
    /// What makes two people the same: first and last name and enterprise, trimmed, ignoring case
    /// and accents.
    static func sameKey(first: String, last: String, enterprise: String) -> [String] {
        [first, last, enterprise].map { OutreachBook.NameKey.folded(OutreachRules.trimmed($0)) }
    }

    var sameKey: [String] { Self.sameKey(first: firstName, last: lastName, enterprise: enterpriseName) }
}
