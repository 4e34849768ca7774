import Foundation
import KithCore
import SQLKit

/// Everything full contacts show besides their own row, loaded for a whole page at once (one
/// query per kind, not per contact).
struct ContactNesting: Sendable {
    var withContactFields = false
    var shorts: [Int64: JSONTree] = [:]
    var addresses: [Int64: [JSONTree]] = [:]
    var tags: [Int64: [JSONTree]] = [:]
    var contactFields: [Int64: [JSONTree]] = [:]
    var notes: [Int64: [JSONTree]] = [:]
    var counts: [String: [Int64: Int64]] = [:]
    var lastActivity: [Int64: Int64] = [:]
    var relationshipGroups: [Int64: [String: [JSONTree]]] = [:]
    var existingGroups: Set<String> = []

    /// The counts Monica's `statistics` lists, and where each comes from (calls and debts are not
    /// kept by Kith, so they are always 0).
    static let statisticsSources: [(key: String, table: String?)] = [
        ("number_of_calls", nil), ("number_of_notes", "monica_notes"),
        ("number_of_activities", "monica_activity_contacts"),
        ("number_of_reminders", "monica_reminders"), ("number_of_tasks", "monica_tasks"),
        ("number_of_gifts", "monica_gifts"), ("number_of_debts", nil),
    ]

    func statistics(of id: Int64) -> JSONTree {
        .object(JSONObject(Self.statisticsSources.map { ($0.key, .int(counts[$0.key]?[id] ?? 0)) }))
    }

    func relationships(of id: Int64) -> JSONTree {
        .object(
            JSONObject(
                RelationshipTypeDefaults.groupNames.map { group in
                    let items = relationshipGroups[id]?[group] ?? []
                    let exists = existingGroups.contains(group)
                    return (group, ["total": .int(Int64(items.count)), "contacts": exists ? .array(items) : .null])
                }))
    }

    /// Full contacts for `rows`, in their order.
    static func present(
        _ sql: any SQLDatabase, _ scope: MonicaScope, _ rows: [MonicaRow], presenter: ContactPresenter? = nil,
        withContactFields: Bool? = nil
    ) async throws -> [JSONTree] {
        let presenter = try await presenter.asyncOr { try await ContactPresenter.load(sql, scope) }
        let nesting = try await load(
            sql, scope, rows, presenter: presenter, withContactFields: withContactFields ?? scope.withContactFields)
        return rows.map { presenter.full($0, nesting) }
    }

    static func load(
        _ sql: any SQLDatabase, _ scope: MonicaScope, _ rows: [MonicaRow], presenter: ContactPresenter,
        withContactFields: Bool
    ) async throws -> ContactNesting {
        var nesting = ContactNesting(withContactFields: withContactFields)
        let real = rows.filter { !$0.bool("is_partial") }
        let ids = real.map(\.id)
        guard !ids.isEmpty else { return nesting }
        let account = scope.accountID
        var shortOf: [Int64: JSONTree] = [:]
        for row in real { shortOf[row.id] = presenter.short(row) }

        for address in try await MonicaQueries.all(
            sql, AddressTable.table, account: account, where: "contact_id", in: ids)
        {
            let contactID = address.int("contact_id") ?? 0
            nesting.addresses[contactID, default: []].append(
                AddressTable.present(address, contact: shortOf[contactID] ?? nil, scope))
        }
        for (contactID, tag) in try await TagTable.tags(sql, account: account, of: ids) {
            nesting.tags[contactID, default: []].append(TagTable.present(tag, scope))
        }
        for source in statisticsSources {
            guard let table = source.table else { continue }
            nesting.counts[source.key] = try await countByContact(sql, table: table, ids: ids)
        }
        nesting.lastActivity = try await ActivityTable.lastActivity(sql, of: ids)
        try await RelationshipTable.nest(sql, scope, ids, presenter: presenter, into: &nesting)

        let metThrough = Set(real.compactMap { $0.int("first_met_through_contact_id") })
        for row in try await MonicaQueries.all(
            sql, ContactTable.table, account: account, where: "id", in: Array(metThrough))
        {
            nesting.shorts[row.id] = presenter.short(row)
        }
        if withContactFields {
            let types = try await ContactFieldTypeTable.all(sql, account: account)
            for field in try await MonicaQueries.all(
                sql, ContactFieldTable.table, account: account, where: "contact_id", in: ids)
            {
                let contactID = field.int("contact_id") ?? 0
                nesting.contactFields[contactID, default: []].append(
                    ContactFieldTable.present(field, types: types, contact: shortOf[contactID] ?? nil, scope))
            }
            for note in try await NoteTable.latest(sql, account: account, of: ids, count: 3) {
                let contactID = note.int("contact_id") ?? 0
                nesting.notes[contactID, default: []].append(
                    NoteTable.present(note, contact: shortOf[contactID] ?? nil, scope))
            }
        }
        return nesting
    }

    private static func countByContact(_ sql: any SQLDatabase, table: String, ids: [Int64]) async throws -> [Int64:
        Int64]
    {
        let rows = try await sql.select().column("contact_id").column(
            SQLFunction("COUNT", args: SQLLiteral.all), as: "n"
        )
        .from(table).where("contact_id", .in, SQLBind.group(ids)).groupBy("contact_id").all()
        var counts: [Int64: Int64] = [:]
        for row in rows {
            counts[try row.decode(column: "contact_id", as: Int64.self)] = try row.decode(column: "n", as: Int64.self)
        }
        return counts
    }
}

/// Short forms of the contacts some objects point at, loaded at once.
enum ContactShorts {
    static func load(_ sql: any SQLDatabase, _ scope: MonicaScope, ids: [Int64], presenter: ContactPresenter? = nil)
        async throws -> [Int64: JSONTree]
    {
        let unique = Array(Set(ids))
        guard !unique.isEmpty else { return [:] }
        let presenter = try await presenter.asyncOr { try await ContactPresenter.load(sql, scope) }
        var shorts: [Int64: JSONTree] = [:]
        for row in try await MonicaQueries.all(
            sql, ContactTable.table, account: scope.accountID, where: "id", in: unique)
        {
            shorts[row.id] = presenter.short(row)
        }
        return shorts
    }
}
