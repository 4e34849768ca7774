import Foundation
import KithCore
import SQLKit

/// Reading pages of contacts: the index, the search and the contacts of a tag.
enum ContactQueries {
    /// The index: real (not partial), active (not archived) contacts, in the requested order.
    static func list(_ sql: any SQLDatabase, _ scope: MonicaScope, _ page: PageRequest) async throws
        -> (rows: [MonicaRow], total: Int)
    {
        func scoped(_ query: SQLSelectBuilder) -> SQLSelectBuilder {
            query.from(ContactTable.table.name).where("account_id", .equal, scope.accountID)
                .where("is_partial", .equal, 0).where("is_active", .equal, 1)
        }
        let total =
            try await scoped(sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n")).first()?
            .decode(column: "n", as: Int64.self) ?? 0
        let direction: SQLDirection = page.descending ? .descending : .ascending
        let rows = try await scoped(sql.select().column("*")).orderBy(SQLIdentifier(page.sortColumn), direction)
            .orderBy("id", direction).limit(page.limit).offset(page.offset).all().map(ContactTable.table.read)
        return (rows, Int(total))
    }

    /// A page of the contacts with tag `tagID` (already the caller's), in the requested order.
    static func tagged(_ sql: any SQLDatabase, _ scope: MonicaScope, tagID: Int64, _ page: PageRequest) async throws
        -> (rows: [MonicaRow], total: Int)
    {
        try await MonicaQueries.page(
            sql, ContactTable.table, account: scope.accountID,
            filter: linked("id", through: "monica_contact_tags", select: "contact_id", where: "tag_id", is: tagID), page
        )
    }

    /// `?query=`: `Field:value` finds contacts whose field of that type (Email, Phone…) starts with
    /// the value; anything else is a name search ranked as `NameSearch` does. Partial contacts are
    /// never found; archived ones are, as in Monica.
    static func search(_ scope: MonicaScope, query: String, _ page: PageRequest) async throws
        -> (rows: [MonicaRow], total: Int)
    {
        if let colon = query.lastIndex(of: ":"), colon != query.startIndex, query.index(after: colon) != query.endIndex
        {
            let field = String(query[..<colon])
            let value = String(query[query.index(after: colon)...])
            return try await scope.read { sql in try await fieldSearch(sql, scope, field: field, value: value, page) }
        }
        guard let search = NameSearch(query) else { return ([], 0) }
        let matches = try await scope.searchIndex.search(scope, search, page)
        let pageIDs = Array(matches.dropFirst(page.offset).prefix(page.limit))
        return (try await scope.read { sql in try await rows(sql, scope, ids: pageIDs) }, matches.count)
    }

    private static func fieldSearch(
        _ sql: any SQLDatabase, _ scope: MonicaScope, field: String, value: String, _ page: PageRequest
    ) async throws -> (rows: [MonicaRow], total: Int) {
        let prefix =
            value.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        let direction = page.descending ? "DESC" : "ASC"
        let ids = try await sql.raw(
            """
            SELECT c.id FROM monica_contacts c
            WHERE c.account_id = \(bind: scope.accountID) AND c.is_partial = 0 AND EXISTS (
                SELECT 1 FROM monica_contact_fields f
                JOIN monica_contact_field_types t ON t.id = f.contact_field_type_id
                WHERE f.contact_id = c.id AND f.account_id = \(bind: scope.accountID)
                AND LOWER(t.name) = \(bind: field.lowercased()) AND LOWER(f.data) LIKE \(bind: prefix) ESCAPE '\\')
            ORDER BY c.\(ident: page.sortColumn) \(unsafeRaw: direction), c.id \(unsafeRaw: direction)
            """
        ).all(decodingColumn: "id", as: Int64.self)
        let pageIDs = ids.dropFirst(page.offset).prefix(page.limit)
        return (try await rows(sql, scope, ids: Array(pageIDs)), ids.count)
    }

    /// The caller's contacts with these ids, in the order of `ids`.
    static func rows(_ sql: any SQLDatabase, _ scope: MonicaScope, ids: [Int64]) async throws -> [MonicaRow] {
        let found = try await MonicaQueries.all(sql, ContactTable.table, account: scope.accountID, where: "id", in: ids)
        let byID = Dictionary(uniqueKeysWithValues: found.map { ($0.id, $0) })
        return ids.compactMap { byID[$0] }
    }
}
