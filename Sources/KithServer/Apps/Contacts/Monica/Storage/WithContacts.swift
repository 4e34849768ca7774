import KithCore
import SQLKit

/// A record that names contacts (a note's contact, a gift's contact and recipient), so a
/// repository can read their short forms in the same unit of work.
protocol NamesContacts: MonicaRecord {
    var namedContacts: [Int64] { get }
}

/// A value, and the short forms of the contacts it names, read together.
struct WithContacts<Value: Sendable>: Sendable {
    let value: Value
    let contacts: [Int64: ContactSummary]

    /// The short form of contact `id`, as presenters nest it; nil when there is none.
    func short(_ id: Int64?, _ presentation: MonicaPresentation) -> JSONTree? {
        id.flatMap { contacts[$0] }.map { ContactPresenter.short($0, presentation) }
    }
}

extension MonicaTableStore where Record: NamesContacts {
    /// A page of records (those `filter` keeps) with the contacts they name.
    func pageNamingContacts(_ page: PageRequest, filter: (any SQLExpression)? = nil) async throws
        -> WithContacts<RecordPage<Record>>
    {
        let found = try await self.page(page, filter: filter)
        let contacts = try await ContactDetailsLoader(sql: sql, account: account)
            .summaries(found.records.flatMap(\.namedContacts))
        return WithContacts(value: found, contacts: contacts)
    }

    /// Record `id` with the contacts it names, or 404.
    func requireNamingContacts(_ id: Int64) async throws -> WithContacts<Record> {
        try await namingContacts(try require(id))
    }

    func namingContacts(_ record: Record) async throws -> WithContacts<Record> {
        let contacts = try await ContactDetailsLoader(sql: sql, account: account).summaries(record.namedContacts)
        return WithContacts(value: record, contacts: contacts)
    }
}

/// `column = value`, for a page's filter.
func equals(_ column: String, _ value: Int64) -> any SQLExpression {
    SQLBinaryExpression(SQLIdentifier(column), .equal, SQLBind(value))
}

/// `column IN (SELECT … FROM through WHERE key = value)`: rows linked through a join table,
/// however many, without binding every id.
func linked(_ column: String, through table: String, select: String, where key: String, is value: Int64)
    -> any SQLExpression
{
    SQLBinaryExpression(
        SQLIdentifier(column), .in,
        SQLSubquery.select {
            $0.column(SQLIdentifier(select)).from(table).where(SQLIdentifier(key), .equal, SQLBind(value))
        })
}
