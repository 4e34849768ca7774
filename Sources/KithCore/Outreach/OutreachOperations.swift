import Foundation

/// Every change a person makes in the Outreach app (docs/outreach.md), defined once: the device's
/// `OutreachStore` and the server's pages both run these (docs/sync.md, "Operations"). The rules
/// across records (unique year names, never the last year, a person's year exists) are checked by
/// whoever applies the writes (`OutreachRules`).
public enum OutreachOperations {
    static let reads = [OutreachEntities.year, OutreachEntities.contact, OutreachEntities.preferences]
    /// What a change to the years reads: the years and the preference, not the people.
    static let yearReads = [OutreachEntities.year, OutreachEntities.preferences]

    /// What a change to one person reads: that person alone (a year holds thousands).
    static func personReads(_ id: UUID) -> [OperationRead] { [.only(OutreachEntities.contact, id)] }

    /// A new year, empty or with the people of `source` (names, enterprise and comments; none
    /// delivered); with `show`, it is the year shown from now on (on every device).
    public static func addYear(_ name: String, copying source: UUID? = nil, show: Bool = false)
        -> RecordOperation<OutreachYear>
    {
        RecordOperation("outreach.addYear", reads: source == nil ? yearReads : reads) {
            (draft) throws(APIErrorDetail) in
            var people: [OutreachContact] = []
            if let source {
                _ = try draft.existing(OutreachEntities.year, source, what: "That year")
                people = draft.book.people(in: source)
            }
            let year = try add(name, show: show, to: &draft)
            for person in people {
                _ = draft.create(
                    OutreachEntities.contact,
                    OutreachFields.newContact(
                        year: year.id, first: person.firstName, last: person.lastName,
                        enterprise: person.enterpriseName, comments: person.comments))
            }
            return year
        }
    }

    /// Renames a year: what the name replaced if another writer had renamed it since `seen`.
    public static func renameYear(_ id: UUID, to name: String, seen: String? = nil) -> RecordOperation<[ReplacedValue]>
    {
        RecordOperation("outreach.renameYear", reads: yearReads) { (draft) throws(APIErrorDetail) in
            try draft.edit(
                OutreachEntities.year, id,
                [FieldEdit(OutreachFields.name, seen: seen, value: OutreachRules.trimmed(name))],
                what: "That year")
        }
    }

    /// Deletes a year and its people (the last year stays); if it was the one shown, the newest
    /// other one is shown instead.
    public static func deleteYear(_ id: UUID) -> RecordOperation<Void> {
        RecordOperation("outreach.deleteYear", reads: yearReads) { (draft) throws(APIErrorDetail) in
            _ = try draft.existing(OutreachEntities.year, id, what: "That year")
            let book = draft.yearBook
            let others = book.years.filter { $0.id != id }
            if book.lastViewedYearId == id, let other = others.first {
                draft.upsert(OutreachEntities.preferences, draft.preferencesID, OutreachFields.lastViewed(other.id))
            }
            draft.delete(OutreachEntities.year, id)
        }
    }

    /// The year to show (the one last viewed on any device, else the current calendar year's, else
    /// the newest); with no year at all, the current year is created. `requested` wins if it exists.
    public static func openYear(requested: UUID? = nil) -> RecordOperation<OutreachYear> {
        RecordOperation("outreach.openYear", reads: yearReads) { (draft) throws(APIErrorDetail) in
            let book = draft.yearBook
            if let requested, let year = book.year(requested) { return year }
            switch book.selection(now: draft.now) {
            case .year(let year): return year
            case .create(let name): return try add(name, show: false, to: &draft)
            }
        }
    }

    /// Remembers the year being viewed, for the next visit and the person's other devices.
    public static func selectYear(_ id: UUID) -> RecordOperation<Void> {
        RecordOperation("outreach.selectYear", reads: yearReads) { (draft) throws(APIErrorDetail) in
            _ = try draft.existing(OutreachEntities.year, id, what: "That year")
            draft.upsert(OutreachEntities.preferences, draft.preferencesID, OutreachFields.lastViewed(id))
        }
    }

    /// A new person in `year`, not delivered. With `askingFirst`, someone already there with the
    /// same names and enterprise refuses it (`same_person`, naming them in the message) so the
    /// screen can ask "add another?" and send it again without.
    public static func addPerson(
        to year: UUID, first: String, last: String, enterprise: String, comments: String = "", askingFirst: Bool = false
    ) -> RecordOperation<OutreachContact> {
        RecordOperation("outreach.addPerson", reads: askingFirst ? reads : yearReads) {
            (draft) throws(APIErrorDetail) in
            let shown = try draft.existing(OutreachEntities.year, year, what: "That year")
            if askingFirst, let same = draft.book.sameAs(first: first, last: last, enterprise: enterprise, in: year) {
                let yearName = shown[OutreachFields.name]?.stringValue ?? "this year"
                throw APIErrorDetail(
                    .samePerson,
                    "\(same.fullName) of \(same.enterpriseName) is already in \(yearName). Add another person with the same name and enterprise?",
                    field: same.id.lowercased)
            }
            let fields = OutreachFields.newContact(
                year: year, first: first, last: last, enterprise: enterprise, comments: comments)
            let id = draft.create(OutreachEntities.contact, fields)
            guard let person = OutreachContact(id: id, fields: fields) else {
                throw OperationRefusal.notFound("The new person")
            }
            return person
        }
    }

    /// Changes a person's names, enterprise and comments (only the fields the person changed):
    /// what it replaced that another writer had changed since they saw it.
    public static func editPerson(_ id: UUID, _ edits: [FieldEdit]) -> RecordOperation<[ReplacedValue]> {
        RecordOperation("outreach.editPerson", reading: personReads(id)) { (draft) throws(APIErrorDetail) in
            let trimmed = edits.map { edit in
                guard edit.field != OutreachFields.comments, case .string(let text) = edit.value else { return edit }
                return FieldEdit(edit.field, seen: edit.seen, value: .string(OutreachRules.trimmed(text)))
            }
            return try draft.edit(OutreachEntities.contact, id, trimmed, what: "That person")
        }
    }

    /// Delivered at `now` (the time of the tap or click), or not delivered: the person as they now are.
    public static func setDelivered(_ id: UUID, _ delivered: Bool) -> RecordOperation<OutreachContact> {
        RecordOperation("outreach.setDelivered", reading: personReads(id)) { (draft) throws(APIErrorDetail) in
            _ = try draft.existing(OutreachEntities.contact, id, what: "That person")
            draft.upsert(OutreachEntities.contact, id, OutreachFields.delivery(delivered, at: draft.now))
            return try person(id, in: draft)
        }
    }

    /// Deletes a person: the person as they were.
    public static func deletePerson(_ id: UUID) -> RecordOperation<OutreachContact> {
        RecordOperation("outreach.deletePerson", reading: personReads(id)) { (draft) throws(APIErrorDetail) in
            let was = try person(id, in: draft)
            draft.delete(OutreachEntities.contact, id)
            return was
        }
    }

    /// Adds the people of a CSV file to `year`. A row naming someone already in the year (same
    /// first and last name and enterprise, ignoring case and accents) updates their delivery and
    /// comments instead of adding them twice, so importing a file again adds nobody. A bad row is
    /// left out and reported by its line and reason; a file that is not the CSV at all is the
    /// refusal and nothing is written.
    public static func importCSV(_ csv: String, into year: UUID) -> RecordOperation<OutreachImport> {
        RecordOperation("outreach.importCSV", reads: reads) { (draft) throws(APIErrorDetail) in
            _ = try draft.existing(OutreachEntities.year, year, what: "That year")
            let reading = try OutreachCSV.read(csv, year: year)
            var summary = OutreachImport(added: 0, updated: 0, unchanged: 0, skipped: reading.skipped)
            // Who is in the year, by what makes two people the same: looked up once per row (a file
            // of thousands against a year of thousands), kept up to date with the rows added.
            var known: [[String]: UUID] = [:]
            for person in draft.book.people(in: year) where known[person.sameKey] == nil {
                known[person.sameKey] = person.id
            }
            for fields in reading.people {
                let key = OutreachContact(id: UUID(), fields: fields)?.sameKey
                if let key, let existing = known[key] {
                    let stored = draft.record(OutreachEntities.contact, existing) ?? [:]
                    let changes = fields.filter { key, value in
                        OutreachFields.importUpdates.contains(key) && stored[key] ?? .null != value
                    }
                    if changes.isEmpty {
                        summary.unchanged += 1
                    } else {
                        draft.upsert(OutreachEntities.contact, existing, changes)
                        summary.updated += 1
                    }
                } else {
                    let id = draft.create(OutreachEntities.contact, fields)
                    if let key { known[key] = id }
                    summary.added += 1
                }
            }
            return summary
        }
    }

    private static func add(_ name: String, show: Bool, to draft: inout OperationDraft) throws(APIErrorDetail)
        -> OutreachYear
    {
        let others = draft.yearBook.years.map(\.name)
        if let problem = OutreachRules.yearNameProblem(name, others: others) { throw problem }
        let fields = OutreachFields.year(name: name, createdAt: draft.now)
        let id = draft.create(OutreachEntities.year, fields)
        if show { draft.upsert(OutreachEntities.preferences, draft.preferencesID, OutreachFields.lastViewed(id)) }
        guard let year = OutreachYear(id: id, fields: fields) else { throw OperationRefusal.notFound("The new year") }
        return year
    }

    private static func person(_ id: UUID, in draft: OperationDraft) throws(APIErrorDetail) -> OutreachContact {
        guard let fields = draft.record(OutreachEntities.contact, id),
            let person = OutreachContact(id: id, fields: fields)
        else { throw OperationRefusal.notFound("That person") }
        return person
    }
}

/// What importing a CSV file did: people added, people already there whose delivery or comments
/// the file changed, people already there as the file has them, and the lines left out.
public struct OutreachImport: Sendable, Equatable, Codable {
    public var added: Int
    public var updated: Int
    public var unchanged: Int
    public var skipped: [OutreachSkippedLine]
    /// How many lines were left out: `skipped.count`, unless only the first ones are listed (the
    /// web page's address carries at most 50).
    public var skippedCount: Int

    public init(added: Int, updated: Int, unchanged: Int, skipped: [OutreachSkippedLine] = []) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
        skippedCount = skipped.count
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        added = try container.decode(Int.self, forKey: .added)
        updated = try container.decode(Int.self, forKey: .updated)
        unchanged = try container.decode(Int.self, forKey: .unchanged)
        skipped = try container.decodeIfPresent([OutreachSkippedLine].self, forKey: .skipped) ?? []
        skippedCount = try container.decodeIfPresent(Int.self, forKey: .skippedCount) ?? skipped.count
    }
}

extension OperationDraft {
    /// The Outreach records this draft reads, as the screens order them.
    var book: OutreachBook {
        OutreachBook(
            years: records(OutreachEntities.year).compactMap { OutreachYear(id: $0.key, fields: $0.value) },
            contacts: records(OutreachEntities.contact).compactMap { OutreachContact(id: $0.key, fields: $0.value) },
            lastViewedYearId: record(OutreachEntities.preferences, preferencesID)?["lastViewedYearId"]?.stringValue
                .flatMap(UUID.init(text:)))
    }

    /// The years and the one shown, without the people (for changes that do not read them).
    var yearBook: OutreachBook {
        OutreachBook(
            years: records(OutreachEntities.year).compactMap { OutreachYear(id: $0.key, fields: $0.value) },
            contacts: [],
            lastViewedYearId: record(OutreachEntities.preferences, preferencesID)?["lastViewedYearId"]?.stringValue
                .flatMap(UUID.init(text:)))
    }

    var preferencesID: UUID { OutreachFields.preferencesID(scope: scope) }
}

extension OutreachImport {
    /// What the import did, as every surface says it: "Imported 3 people into 2026; 2 people
    /// already there were updated; 5 people already there were unchanged."
    public static func sentence(_ done: OutreachImport, year: String? = nil) -> String {
        var parts = ["Imported \(people(done.added))" + (year.map { " into \($0)" } ?? "")]
        if done.updated > 0 { parts.append("\(people(done.updated, already: true)) updated") }
        if done.unchanged > 0 { parts.append("\(people(done.unchanged, already: true)) unchanged") }
        if done.skippedCount > 0 {
            parts.append("\(done.skippedCount) \(done.skippedCount == 1 ? "line was" : "lines were") skipped")
        }
        return parts.joined(separator: "; ") + "."
    }

    private static func people(_ count: Int, already: Bool = false) -> String {
        let noun = count == 1 ? "person" : "people"
        return already ? "\(count) \(noun) already there" + (count == 1 ? " was" : " were") : "\(count) \(noun)"
    }
}
