import Foundation
import KithCore
import SQLKit

/// `monica_contacts`: a person, with Monica's special dates flattened into columns (a date plus
/// its two flags) and the folded words contact search reads (`search_text`).
enum ContactTable {
    static let table = MonicaTable(
        name: "monica_contacts",
        columns: [
            .init("uuid", .text), .init("first_name", .text), .init("middle_name", .text), .init("last_name", .text),
            .init("nickname", .text), .init("description", .text), .init("gender_id", .int),
            .init("is_starred", .bool), .init("is_partial", .bool), .init("is_active", .bool), .init("is_dead", .bool),
            .init("birthdate", .text), .init("birthdate_is_age_based", .bool),
            .init("birthdate_is_year_unknown", .bool),
            .init("deceased_date", .text), .init("deceased_date_is_age_based", .bool),
            .init("deceased_date_is_year_unknown", .bool),
            .init("job", .text), .init("company", .text), .init("food_preferences", .text),
            .init("first_met_general_information", .text), .init("first_met_date", .text),
            .init("first_met_date_is_age_based", .bool), .init("first_met_date_is_year_unknown", .bool),
            .init("first_met_through_contact_id", .int),
            .init("stay_in_touch_frequency", .int), .init("stay_in_touch_trigger_date", .int),
            .init("last_called", .int), .init("last_activity_together", .int),
            .init("birthday_reminder_id", .int), .init("deceased_reminder_id", .int),
            .init("first_met_reminder_id", .int),
            .init("avatar_color", .text), .init("search_text", .text),
        ])

    /// Monica's default avatar colours; a new contact gets one at random.
    static let avatarColors = ["#fdb660", "#93521e", "#bd5067", "#b3d5fe", "#ff9807", "#709512", "#5f479a", "#e5e5cd"]

    /// The words search matches: names, nickname, job, company and email addresses.
    static func searchText(_ row: MonicaRow, emails: [String]) -> String {
        NameSearch.searchText(
            of: [
                row.text("first_name"), row.text("middle_name"), row.text("last_name"), row.text("nickname"),
                row.text("job"), row.text("company"),
            ] + emails)
    }

    /// Recomputes a contact's search words after it or one of its email fields changed.
    static func refreshSearchText(_ sql: any SQLDatabase, account: Int64, contactID: Int64) async throws {
        guard let row = try await MonicaQueries.find(sql, table, account: account, id: contactID) else { return }
        try await refreshSearchText(sql, account: account, contact: row)
    }

    static func refreshSearchText(_ sql: any SQLDatabase, account: Int64, contact row: MonicaRow) async throws {
        let emails = try await sql.raw(
            """
            SELECT f.data FROM monica_contact_fields f JOIN monica_contact_field_types t ON t.id = f.contact_field_type_id
            WHERE f.contact_id = \(bind: row.id) AND t.type = 'email' ORDER BY f.id
            """
        ).all(decodingColumn: "data", as: String.self)
        try await sql.update(table.name).set("search_text", to: SQLBind(searchText(row, emails: emails)))
            .where("id", .equal, row.id).run()
        try await contactsChanged(sql, account: account)
    }

    /// Tells every server's search index (`ContactSearchIndex`) that the account's contacts changed.
    static func contactsChanged(_ sql: any SQLDatabase, account: Int64) async throws {
        try await sql.raw(
            "UPDATE monica_accounts SET contacts_version = contacts_version + 1 WHERE id = \(bind: account)"
        ).run()
    }
}

/// `monica_genders`.
enum GenderTable {
    static let table = MonicaTable(name: "monica_genders", columns: [.init("name", .text), .init("type", .text)])

    static func present(_ row: MonicaRow, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("object", "gender"), ("name", .nullable(row.text("name"))),
                    ("type", .nullable(row.text("type"))),
                ] + row.stamps(scope)))
    }

    static func all(_ sql: any SQLDatabase, account: Int64) async throws -> [Int64: MonicaRow] {
        let rows = try await sql.select().column("*").from(table.name).where("account_id", .equal, account).all()
            .map(table.read)
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
    }
}
