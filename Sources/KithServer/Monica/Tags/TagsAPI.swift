import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `monica_tags` and the contact links in `monica_contact_tags`.
enum TagTable {
    static let table = MonicaTable(name: "monica_tags", columns: [.init("name", .text), .init("name_slug", .text)])

    static func present(_ row: MonicaRow, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("object", "tag"), ("name", .nullable(row.text("name"))),
                    ("name_slug", .nullable(row.text("name_slug"))),
                ] + row.stamps(scope)))
    }

    static let presenter: RowPresenter = { row, _, scope in present(row, scope) }

    /// Laravel's `Str::slug`: accents dropped, lower case, runs of other characters as one dash.
    static func slug(_ name: String) -> String {
        let ascii = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        var slug = ""
        var pendingDash = false
        for character in ascii {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                slug.append(character)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return slug
    }

    /// Each contact's tags, in the order they were attached.
    static func tags(_ sql: any SQLDatabase, account: Int64, of contactIDs: [Int64]) async throws -> [(
        Int64, MonicaRow
    )] {
        guard !contactIDs.isEmpty else { return [] }
        let rows = try await sql.select().column(SQLColumn("contact_id", table: "ct")).column(
            SQLColumn("*", table: "t")
        )
        .from(SQLAlias(SQLIdentifier("monica_contact_tags"), as: SQLIdentifier("ct")))
        .join(
            SQLAlias(SQLIdentifier(table.name), as: SQLIdentifier("t")), on: SQLColumn("tag_id", table: "ct"), .equal,
            SQLColumn("id", table: "t")
        )
        .where(SQLColumn("account_id", table: "ct"), .equal, SQLBind(account))
        .where(SQLColumn("contact_id", table: "ct"), .in, SQLBind.group(contactIDs))
        .orderBy(SQLColumn("created_at", table: "ct")).orderBy(SQLColumn("id", table: "t")).all()
        return try rows.map { (try $0.decode(column: "contact_id", as: Int64.self), try table.read($0)) }
    }
}

/// `/api/tags`, `/api/tags/{id}/contacts` and a contact's `setTags`, `unsetTag`, `unsetTags`.
struct TagsAPI {
    static let rules = [FieldRules("name", .required, .string, .max(255))]

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("tags") { scope in
            try await ResourceSteps.list(scope, TagTable.table, contactColumns: [], TagTable.presenter)
        }
        routes.get("tags/{id}") { scope in
            try await ResourceSteps.show(
                scope, TagTable.table, id: try scope.id(), contactColumns: [], TagTable.presenter)
        }
        routes.post("tags") { scope in try await save(scope, id: nil) }
        routes.put("tags/{id}") { scope in try await save(scope, id: try scope.id()) }
        routes.delete("tags/{id}") { scope in try await ResourceSteps.destroy(scope, TagTable.table, answerText: true) }
        routes.get("tags/{id}/contacts") { scope in try await contacts(scope) }
        routes.post("contacts/{id}/setTags") { scope in try await setTags(scope) }
        routes.post("contacts/{id}/unsetTag") { scope in try await unsetTag(scope) }
        routes.post("contacts/{id}/unsetTags") { scope in try await unsetAll(scope) }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.rules)
        let name = input.string("name") ?? ""
        let saved: Int64 = try await scope.write { sql in
            if let existing = try await Self.find(sql, scope, name: name), existing.id != id {
                throw MonicaError.invalid("A tag named \"\(name)\" already exists.")
            }
            let values: [String: DBValue] = ["name": .text(name), "name_slug": .text(TagTable.slug(name))]
            if let id {
                guard try await MonicaQueries.find(sql, TagTable.table, account: scope.accountID, id: id) != nil else {
                    throw MonicaError.notFound
                }
                try await MonicaQueries.update(
                    sql, TagTable.table, account: scope.accountID, id: id, now: scope.now, values)
                return id
            }
            return try await MonicaQueries.insert(sql, TagTable.table, account: scope.accountID, now: scope.now, values)
        }
        return try await ResourceSteps.show(
            scope, TagTable.table, id: saved, contactColumns: [], status: id == nil ? .created : .ok, TagTable.presenter
        )
    }

    private static func find(_ sql: any SQLDatabase, _ scope: MonicaScope, name: String) async throws -> MonicaRow? {
        try await sql.select().column("*").from(TagTable.table.name).where("account_id", .equal, scope.accountID)
            .where("name", .equal, name).first().map(TagTable.table.read)
    }

    /// The tag's contacts, with their contact fields and last notes, a page at a time.
    private func contacts(_ scope: MonicaScope) async throws -> Response {
        let tagID = try scope.id()
        let page = try scope.page()
        return try await scope.read { sql in
            guard try await MonicaQueries.find(sql, TagTable.table, account: scope.accountID, id: tagID) != nil else {
                throw MonicaError.notFound
            }
            let (rows, total) = try await ContactQueries.tagged(sql, scope, tagID: tagID, page)
            let items = try await ContactNesting.present(sql, scope, rows, withContactFields: true)
            return PageEnvelope(items: items, total: total, request: page, path: scope.indexURL).response
        }
    }

    private static let tagsRule = [FieldRules("tags", .required, .array)]

    /// Attaches tags by name, creating the ones the account does not have yet.
    private func setTags(_ scope: MonicaScope) async throws -> Response {
        let contactID = try scope.id()
        let raw = try await scope.input()
        _ = try await scope.read { sql in try await ResourceSteps.ownedContact(sql, scope, contactID) }
        let input = try MonicaValidator.validate(raw, Self.tagsRule)
        let names = try (input.array("tags") ?? []).compactMap { item -> String? in
            if item.isNull || item == .string("0") || item == .int(0) { return nil }
            guard let name = ValidInput.text(item) else { throw MonicaError.invalid("The name must be a string.") }
            guard name.count <= 255 else {
                throw MonicaError.invalid("The name must not be greater than 255 characters.")
            }
            return name
        }
        try await scope.write { sql in
            try await ResourceSteps.ownedContact(sql, scope, contactID)
            for name in names {
                let tagID: Int64
                if let existing = try await Self.find(sql, scope, name: name) {
                    tagID = existing.id
                } else {
                    tagID = try await MonicaQueries.insert(
                        sql, TagTable.table, account: scope.accountID, now: scope.now,
                        ["name": .text(name), "name_slug": .text(TagTable.slug(name))])
                }
                let linked = try await sql.select().column("tag_id").from("monica_contact_tags")
                    .where("contact_id", .equal, contactID).where("tag_id", .equal, tagID).first()
                if linked == nil {
                    try await sql.insert(into: "monica_contact_tags").columns(
                        "contact_id", "tag_id", "account_id", "created_at"
                    )
                    .values(SQLBind(contactID), SQLBind(tagID), SQLBind(scope.accountID), SQLBind(scope.now)).run()
                }
            }
        }
        return try await ContactsAPI.showContact(scope, id: contactID)
    }

    /// Detaches the listed tag ids; every one must be the caller's, or nothing changes.
    private func unsetTag(_ scope: MonicaScope) async throws -> Response {
        let contactID = try scope.id()
        let raw = try await scope.input()
        _ = try await scope.read { sql in try await ResourceSteps.ownedContact(sql, scope, contactID) }
        let input = try MonicaValidator.validate(raw, Self.tagsRule)
        let ids = try (input.array("tags") ?? []).compactMap { item -> Int64? in
            if item.isNull || item == .string("0") || item == .int(0) { return nil }
            guard let id = ValidInput.integer(item) else { throw MonicaError.invalid("The tag id must be an integer.") }
            return id
        }
        try await scope.write { sql in
            try await ResourceSteps.ownedContact(sql, scope, contactID)
            for id in ids {
                guard try await MonicaQueries.find(sql, TagTable.table, account: scope.accountID, id: id) != nil else {
                    throw MonicaError.notFound
                }
                try await sql.delete(from: "monica_contact_tags").where("contact_id", .equal, contactID)
                    .where("tag_id", .equal, id).run()
            }
        }
        return try await ContactsAPI.showContact(scope, id: contactID)
    }

    private func unsetAll(_ scope: MonicaScope) async throws -> Response {
        let contactID = try scope.id()
        try await scope.write { sql in
            try await ResourceSteps.ownedContact(sql, scope, contactID)
            try await sql.delete(from: "monica_contact_tags").where("contact_id", .equal, contactID).run()
        }
        return try await ContactsAPI.showContact(scope, id: contactID)
    }
}
