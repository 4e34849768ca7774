import Foundation
import Hummingbird
import KithCore
import SQLKit

/// How a resource writes one of its rows, given the short forms of the contacts it points at.
typealias RowPresenter = @Sendable (MonicaRow, [Int64: JSONTree], MonicaScope) -> JSONTree

/// The steps most `/api` resources share: list a page, show one, list a contact's, check the
/// contacts a write points at, delete. Every read is filtered by the caller's account.
enum ResourceSteps {
    /// A page of the account's rows (optionally only a contact's), with the contacts they point at.
    static func list(
        _ scope: MonicaScope, _ table: MonicaTable, filter: (any SQLExpression)? = nil,
        sortable: Set<String> = ["created_at", "updated_at"], contactColumns: [String] = ["contact_id"],
        extraMeta: (@Sendable (any SQLDatabase) async throws -> [(String, JSONTree)])? = nil,
        _ present: @escaping RowPresenter
    ) async throws -> Response {
        let page = try scope.page(sortable: sortable)
        return try await scope.read { sql in
            let (rows, total) = try await MonicaQueries.page(sql, table, account: scope.accountID, filter: filter, page)
            let shorts = try await ContactShorts.load(
                sql, scope, ids: rows.flatMap { row in contactColumns.compactMap { row.int($0) } })
            var envelope = PageEnvelope(
                items: rows.map { present($0, shorts, scope) }, total: total, request: page, path: scope.indexURL)
            if let extraMeta { envelope.extraMeta = try await extraMeta(sql) }
            return envelope.response
        }
    }

    /// A contact's rows: the contact must be the caller's (else 404), then a page as `list`.
    static func listOfContact(
        _ scope: MonicaScope, _ table: MonicaTable, column: String = "contact_id",
        sortable: Set<String> = ["created_at", "updated_at"], contactColumns: [String] = ["contact_id"],
        extraMeta: (@Sendable (any SQLDatabase) async throws -> [(String, JSONTree)])? = nil,
        _ present: @escaping RowPresenter
    ) async throws -> Response {
        let contactID = try scope.id()
        _ = try await scope.read { sql in try await ownedContact(sql, scope, contactID) }
        return try await list(
            scope, table, filter: equals(column, contactID), sortable: sortable, contactColumns: contactColumns,
            extraMeta: extraMeta, present)
    }

    /// One row as `{"data":…}`, or 404.
    static func show(
        _ scope: MonicaScope, _ table: MonicaTable, id: Int64, contactColumns: [String] = ["contact_id"],
        status: HTTPResponse.Status = .ok, _ present: @escaping RowPresenter
    ) async throws -> Response {
        try await scope.read { sql in
            guard let row = try await MonicaQueries.find(sql, table, account: scope.accountID, id: id) else {
                throw MonicaError.notFound
            }
            let shorts = try await ContactShorts.load(sql, scope, ids: contactColumns.compactMap { row.int($0) })
            return MonicaResponse.data(present(row, shorts, scope), status: status)
        }
    }

    /// The caller's contact `id`, or 404 (another account's contact is not there).
    @discardableResult
    static func ownedContact(_ sql: any SQLDatabase, _ scope: MonicaScope, _ id: Int64) async throws -> MonicaRow {
        guard let row = try await MonicaQueries.find(sql, ContactTable.table, account: scope.accountID, id: id) else {
            throw MonicaError.notFound
        }
        return row
    }

    /// Monica's `exists:table,id` then its scoped lookup: an id nobody has is a validation error
    /// naming the parameter, one that another account has is 404.
    @discardableResult
    static func existing(
        _ sql: any SQLDatabase, _ scope: MonicaScope, _ table: MonicaTable, id: Int64, attribute: String
    ) async throws -> MonicaRow {
        if let row = try await MonicaQueries.find(sql, table, account: scope.accountID, id: id) { return row }
        let anywhere = try await sql.select().column("id").from(table.name).where("id", .equal, id).first()
        if anywhere == nil { throw MonicaError.invalid("The selected \(attribute) is invalid.") }
        throw MonicaError.notFound
    }

    static func requireNotPartial(_ contact: MonicaRow) throws {
        if contact.bool("is_partial") { throw MonicaError.invalid("The contact can't be a partial contact") }
    }

    /// Deletes the caller's row `id` in one transaction with `also` (what goes with it); with an
    /// `attribute`, an id nobody has is Monica's validation error naming it instead of 404.
    static func destroy(
        _ scope: MonicaScope, _ table: MonicaTable, attribute: String? = nil, answerText: Bool,
        also: (@Sendable (any SQLDatabase, MonicaRow) async throws -> Void)? = nil
    ) async throws -> Response {
        let raw = scope.rawID()
        guard let id = Int64(raw) else {
            if let attribute { throw MonicaError.invalid("The \(attribute) must be an integer.") }
            throw MonicaError.notFound
        }
        try await scope.write { sql in
            let row: MonicaRow
            if let attribute {
                row = try await existing(sql, scope, table, id: id, attribute: attribute)
            } else {
                guard let found = try await MonicaQueries.find(sql, table, account: scope.accountID, id: id) else {
                    throw MonicaError.notFound
                }
                row = found
            }
            try await MonicaQueries.delete(sql, table, account: scope.accountID, id: id)
            try await also?(sql, row)
        }
        return MonicaResponse.deleted(answerText ? .string(raw) : .int(id))
    }
}

extension MonicaRoutes {
    /// The six routes of a resource that hangs off a contact (`notes`, `tasks`…): the index, a
    /// contact's list, one, create, update (PUT and PATCH) and delete.
    func contactChild(
        _ path: String, _ table: MonicaTable, sortable: Set<String> = ["created_at", "updated_at"],
        contactColumns: [String] = ["contact_id"], present: @escaping RowPresenter,
        save: @escaping @Sendable (MonicaScope, Int64?) async throws -> Response, delete: @escaping MonicaHandler
    ) {
        get(path) { scope in
            try await ResourceSteps.list(scope, table, sortable: sortable, contactColumns: contactColumns, present)
        }
        get("contacts/{id}/\(path)") { scope in
            try await ResourceSteps.listOfContact(
                scope, table, sortable: sortable, contactColumns: contactColumns, present)
        }
        get("\(path)/{id}") { scope in
            try await ResourceSteps.show(scope, table, id: try scope.id(), contactColumns: contactColumns, present)
        }
        post(path) { scope in try await save(scope, nil) }
        put("\(path)/{id}") { scope in try await save(scope, try scope.id()) }
        self.delete("\(path)/{id}", delete)
    }
}
