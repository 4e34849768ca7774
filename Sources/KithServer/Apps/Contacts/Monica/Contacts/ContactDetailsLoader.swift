import Foundation
import KithCore
import SQLKit

/// Reads what contacts show besides their own rows, for many contacts at once, inside a
/// repository's transaction: the short forms other objects nest, and the full details the
/// contacts endpoints answer with.
struct ContactDetailsLoader: Sendable {
    let sql: any SQLDatabase
    let account: Int64

    /// The counts Monica's `statistics` lists, and the table each counts a contact's rows of.
    static let statisticsSources: [(key: String, table: String)] = [
        ("number_of_calls", CallRecord.table), ("number_of_notes", NoteRecord.table),
        ("number_of_activities", "monica_activity_contacts"), ("number_of_reminders", ReminderRecord.table),
        ("number_of_tasks", TaskRecord.table), ("number_of_gifts", GiftRecord.table),
        ("number_of_debts", DebtRecord.table),
    ]

    private func store<Record: MonicaRecord>(_ type: Record.Type) -> MonicaTableStore<Record> {
        MonicaTableStore(sql: sql, account: account)
    }

    /// The short forms of the account's contacts among `ids`.
    func summaries(_ ids: [Int64]) async throws -> [Int64: ContactSummary] {
        let contacts = try await store(ContactRecord.self).all(where: "id", in: ids)
        return try await summaries(of: contacts)
    }

    func summaries(of contacts: [ContactRecord]) async throws -> [Int64: ContactSummary] {
        guard !contacts.isEmpty else { return [:] }
        let genders = try await store(GenderRecord.self).byID(contacts.compactMap(\.genderID))
        return Dictionary(
            uniqueKeysWithValues: contacts.map {
                ($0.id, ContactSummary(record: $0, gender: $0.genderID.flatMap { genders[$0] }))
            })
    }

    /// Full details of `contacts`, in their order. Partial contacts show only their own row.
    func details(of contacts: [ContactRecord], withContactFields: Bool) async throws -> [ContactDetails] {
        try await details(of: contacts, statistics: nil, withContactFields: withContactFields)
    }

    /// The account's contacts among `ids` in full, in that order (an id not the account's is left
    /// out): their rows and their statistics come in one statement, and contacts without
    /// addresses, tags or relationships need no other.
    func details(ofContacts ids: [Int64], withContactFields: Bool) async throws -> [ContactDetails] {
        guard !ids.isEmpty else { return [] }
        // `+account_id` keeps the primary key the way in (`MonicaTableStore.all(where:in:)` says why).
        let rows = try await sql.raw(
            """
            SELECT c.*, \(unsafeRaw: Self.statisticsColumns) FROM monica_contacts c
            WHERE +c.account_id = \(bind: account) AND c.id \(in: Array(Set(ids)))
            """
        ).all()
        var byID: [Int64: ContactRecord] = [:]
        for row in rows {
            let contact = try row.record(ContactRecord.self)
            byID[contact.id] = contact
        }
        return try await details(
            of: ids.compactMap { byID[$0] }, statistics: rows, withContactFields: withContactFields)
    }

    /// Contact `id` of the account in full, or `MonicaError.notFound`.
    func details(ofContact id: Int64, withContactFields: Bool) async throws -> ContactDetails {
        guard let found = try await details(ofContacts: [id], withContactFields: withContactFields).first else {
            throw MonicaError.notFound
        }
        return found
    }

    /// `statistics`: the contacts' rows of `statisticsColumns` when already read (nil: read them).
    private func details(of contacts: [ContactRecord], statistics: [any SQLRow]?, withContactFields: Bool) async throws
        -> [ContactDetails]
    {
        let summaries = try await self.summaries(of: contacts)
        var details = contacts.map {
            ContactDetails(summary: summaries[$0.id] ?? ContactSummary(record: $0, gender: nil))
        }
        let ids = contacts.filter { !$0.isPartial }.map(\.id)
        guard !ids.isEmpty else { return details }
        var index: [Int64: Int] = [:]
        for (position, contact) in contacts.enumerated() where !contact.isPartial { index[contact.id] = position }

        var rows = statistics ?? []
        if statistics == nil { rows = try await sql.raw("\(unsafeRaw: Self.statisticsQuery)\(in: ids)").all() }
        let present = try Self.addStatistics(rows, index: index, to: &details)
        if present.contains(.addresses) {
            for address in try await store(AddressRecord.self).all(where: "contact_id", in: ids) {
                if let position = index[address.contactID] { details[position].addresses.append(address) }
            }
        }
        if present.contains(.tags) {
            for (contactID, tag) in try await tags(of: ids) {
                if let position = index[contactID] { details[position].tags.append(tag) }
            }
        }
        if present.contains(.relationships) { try await addRelationships(ids, index: index, to: &details) }
        let metThrough = try await self.summaries(contacts.compactMap(\.firstMetThroughContactID))
        for position in details.indices {
            details[position].firstMetThrough = details[position].record.firstMetThroughContactID.flatMap {
                metThrough[$0]
            }
        }
        if withContactFields {
            let types = Dictionary(
                uniqueKeysWithValues: try await store(ContactFieldTypeRecord.self).all().map { ($0.id, $0) })
            for position in details.indices where index[details[position].record.id] != nil {
                details[position].contactFields = []
                details[position].latestNotes = []
            }
            for field in try await store(ContactFieldRecord.self).all(where: "contact_id", in: ids) {
                if let position = index[field.contactID] {
                    details[position].contactFields?.append((field, types[field.contactFieldTypeID]))
                }
            }
            for note in try await latestNotes(of: ids, count: 3) {
                if let position = index[note.contactID] { details[position].latestNotes?.append(note) }
            }
        }
        return details
    }

    /// One contact in full.
    func details(of contact: ContactRecord, withContactFields: Bool) async throws -> ContactDetails {
        try await details(of: [contact], withContactFields: withContactFields)[0]
    }

    /// A contact created in this transaction, in full, built from what its create wrote and
    /// checked: its `gender`, the `reminders` of its dates and its contact `fields` (an email).
    /// Nothing else can point at it yet (addresses, tags, relationships, notes, activities, tasks,
    /// gifts), so nothing is read back; `aCreateAnswersWithTheContactAReadShows` holds it to what
    /// a read shows.
    func details(
        ofNew contact: ContactRecord, gender: GenderRecord?, reminders: Int,
        fields: [(field: ContactFieldRecord, type: ContactFieldTypeRecord?)], withContactFields: Bool
    ) -> ContactDetails {
        var details = ContactDetails(summary: ContactSummary(record: contact, gender: gender))
        // A partial contact shows only its own row, as `details(of:)` does.
        guard !contact.isPartial else { return details }
        if reminders > 0 { details.counts["number_of_reminders"] = Int64(reminders) }
        if withContactFields {
            details.contactFields = fields
            details.latestNotes = []
        }
        return details
    }

    /// Each contact's tags, in the order they were attached.
    func tags(of contactIDs: [Int64]) async throws -> [(Int64, TagRecord)] {
        guard !contactIDs.isEmpty else { return [] }
        let rows = try await sql.raw(
            """
            SELECT ct.contact_id, t.* FROM monica_contact_tags ct JOIN \(unsafeRaw: TagRecord.table) t ON ct.tag_id = t.id
            WHERE ct.account_id = \(bind: account) AND ct.contact_id \(in: contactIDs)
            ORDER BY ct.created_at, t.id
            """
        ).all()
        return try rows.map { (try $0.decode(column: "contact_id", as: Int64.self), try $0.record(TagRecord.self)) }
    }

    /// Each contact's `count` newest notes.
    private func latestNotes(of contactIDs: [Int64], count: Int) async throws -> [NoteRecord] {
        let all = try await sql.raw(
            """
            SELECT * FROM \(unsafeRaw: NoteRecord.table) WHERE account_id = \(bind: account)
            AND contact_id \(in: contactIDs) ORDER BY created_at DESC, id DESC
            """
        ).all().map { try $0.record(NoteRecord.self) }
        var taken: [Int64: Int] = [:]
        return all.filter { note in
            let kept = taken[note.contactID, default: 0] + 1
            taken[note.contactID] = kept
            return kept <= count
        }
    }

    /// A list a contact shows that is read only when one of the contacts has any of it: most
    /// contacts have no address, tag or relationship, and on PostgreSQL each read is a round trip
    /// (docs/storage.md). The raw value is its column in `statisticsColumns`.
    private enum OptionalList: String, CaseIterable {
        case addresses = "has_addresses", tags = "has_tags", relationships = "has_relationships"

        /// The table, and its column naming the contact, whose rows make the list.
        var source: (table: String, column: String) {
            switch self {
            case .addresses: (AddressRecord.table, "contact_id")
            case .tags: ("monica_contact_tags", "contact_id")
            case .relationships: (RelationshipRecord.table, "contact_is")
            }
        }
    }

    /// What `statistics` counts, the last activity's day and which lists are not empty, as columns
    /// of a query on contacts `c`: a subquery per column (each by its `contact_id` index) instead
    /// of a query per column.
    private static let statisticsColumns: String = {
        var columns = ["c.id AS statistics_of"]
        for source in statisticsSources {
            columns.append("(SELECT COUNT(*) FROM \(source.table) s WHERE s.contact_id = c.id) AS \(source.key)")
        }
        columns.append(
            """
            (SELECT MAX(a.happened_at) FROM monica_activity_contacts ac JOIN \(ActivityRecord.table) a \
            ON a.id = ac.activity_id WHERE ac.contact_id = c.id) AS last_activity
            """)
        for list in OptionalList.allCases {
            columns.append(
                """
                (CASE WHEN EXISTS (SELECT 1 FROM \(list.source.table) s WHERE s.account_id = c.account_id \
                AND s.\(list.source.column) = c.id) THEN 1 ELSE 0 END) AS \(list.rawValue)
                """)
        }
        return columns.joined(separator: ", ")
    }()

    /// The statistics of contacts already read with the account's filter, so the query needs none:
    /// with `account_id = ?` SQLite's planner walked the account's whole index instead of the ids.
    private static let statisticsQuery = "SELECT \(statisticsColumns) FROM monica_contacts c WHERE c.id "

    private static func addStatistics(_ rows: [any SQLRow], index: [Int64: Int], to details: inout [ContactDetails])
        throws -> Set<OptionalList>
    {
        var present: Set<OptionalList> = []
        for row in rows {
            guard let position = index[try row.decode(column: "statistics_of", as: Int64.self)] else { continue }
            for source in statisticsSources {
                let count = try row.decode(column: source.key, as: Int64.self)
                if count > 0 { details[position].counts[source.key] = count }
            }
            // The most recent day of an activity, as midnight UTC milliseconds.
            if let day = try row.decode(column: "last_activity", as: String?.self).flatMap(MonicaDate.init(ymd:)) {
                details[position].lastActivity = day.epochMillis
            }
            for list in OptionalList.allCases where try row.decode(column: list.rawValue, as: Int64.self) != 0 {
                present.insert(list)
            }
        }
        return present
    }

    /// Each contact's relationships by group (love, family…). The groups are read only to name
    /// those of the relationships found: every account has all four (`ContactPresenter`).
    private func addRelationships(_ ids: [Int64], index: [Int64: Int], to details: inout [ContactDetails]) async throws
    {
        let relationships = try await store(RelationshipRecord.self).all(where: "contact_is", in: ids)
        guard !relationships.isEmpty else { return }
        let groups = try await store(RelationshipTypeGroupRecord.self).all()
        let types = try await store(RelationshipTypeRecord.self).byID(relationships.map(\.relationshipTypeID))
        let groupName = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0.name) })
        let others = try await summaries(relationships.map(\.ofContact))
        for relationship in relationships {
            guard let type = types[relationship.relationshipTypeID],
                let group = type.relationshipTypeGroupID.flatMap({ groupName[$0] }),
                let other = others[relationship.ofContact], let position = index[relationship.contactIs]
            else { continue }
            details[position].relationships[group, default: []].append((relationship, type, other))
        }
    }
}
