import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `/api/contacts`: the index and search, one contact, create, update, delete, and the work,
/// food and introduction sub-resources.
struct ContactsAPI {
    static let nameRules = [
        FieldRules("first_name", .required, .string, .max(255)),
        FieldRules("middle_name", .nullable, .string, .max(255)),
        FieldRules("last_name", .nullable, .string, .max(255)), FieldRules("nickname", .nullable, .string, .max(255)),
    ]
    static let dateRules = [
        FieldRules("is_birthdate_known", .required, .boolean), FieldRules("birthdate_day", .nullable, .integer),
        FieldRules("birthdate_month", .nullable, .integer), FieldRules("birthdate_year", .nullable, .integer),
        FieldRules("birthdate_is_age_based", .nullable, .boolean), FieldRules("birthdate_age", .nullable, .integer),
        FieldRules("birthdate_add_reminder", .nullable, .boolean),
    ]
    static let deceasedRules = [
        FieldRules("is_deceased_date_known", .required, .boolean), FieldRules("deceased_date_day", .nullable, .integer),
        FieldRules("deceased_date_month", .nullable, .integer), FieldRules("deceased_date_year", .nullable, .integer),
        FieldRules("deceased_date_add_reminder", .nullable, .boolean),
    ]
    static let createRules =
        [FieldRules("uuid", .nullable, .string)] + nameRules + [
            FieldRules("email", .nullable, .string, .max(255)), FieldRules("gender_id", .nullable, .integer),
            FieldRules("description", .nullable, .string, .max(255)), FieldRules("is_partial", .nullable, .boolean),
        ] + dateRules + [FieldRules("is_deceased", .required, .boolean)] + deceasedRules
    static let updateRules =
        [FieldRules("uuid", .nullable, .string)] + nameRules + [
            FieldRules("gender_id", .nullable, .integer), FieldRules("description", .nullable, .string, .max(255)),
            FieldRules("is_partial", .nullable, .boolean),
        ] + dateRules + [FieldRules("is_deceased", .nullable, .boolean)] + deceasedRules
    static let sortable: Set<String> = ["created_at", "updated_at"]

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("contacts") { scope in try await index(scope) }
        routes.get("contacts/{id}") { scope in try await Self.showContact(scope, id: try scope.id()) }
        routes.post("contacts") { scope in try await save(scope, id: nil) }
        routes.put("contacts/{id}") { scope in try await save(scope, id: try scope.id()) }
        routes.delete("contacts/{id}") { scope in
            try await ResourceSteps.destroy(scope, ContactTable.table, answerText: true) { sql, row in
                try await ContactTable.contactsChanged(sql, account: scope.accountID)
                // Reminders made for this contact's dates go with it (foreign keys); so do its fields,
                // addresses, notes, tasks, gifts, tags links, activity attendance and relationships.
                if scope.account.meContactID == row.id {
                    try await sql.update("monica_accounts").set("me_contact_id", to: SQLBind(DBValue.null))
                        .where("id", .equal, scope.accountID).run()
                }
            }
        }
        routes.put("contacts/{id}/work") { scope in
            try await updateAbout(
                scope,
                rules: [
                    FieldRules("job", .nullable, .string, .max(255)),
                    FieldRules("company", .nullable, .string, .max(255)),
                ]
            ) { input in ["job": .text(input.string("job")), "company": .text(input.string("company"))] }
        }
        routes.put("contacts/{id}/food") { scope in
            try await updateAbout(scope, rules: [FieldRules("food_preferences", .nullable, .string, .max(65535))]) {
                input in ["food_preferences": .text(input.string("food_preferences"))]
            }
        }
        routes.put("contacts/{id}/introduction") { scope in try await introduction(scope) }
    }

    private func index(_ scope: MonicaScope) async throws -> Response {
        let page = try scope.page(sortable: Self.sortable)
        let rawQuery = scope.request.uri.queryParameters.get("query") ?? ""
        // NUL can match nothing stored, and PostgreSQL refuses it in a bound value.
        let query = (rawQuery.removingPercentEncoding ?? rawQuery).replacingOccurrences(of: "\u{0}", with: "")
        let isSearch = !query.trimmingCharacters(in: .whitespaces).isEmpty
        let found = isSearch ? try await ContactQueries.search(scope, query: query, page) : nil
        return try await scope.read { sql in
            let (rows, total) = try await found.asyncOr { try await ContactQueries.list(sql, scope, page) }
            let items = try await ContactNesting.present(sql, scope, rows)
            var envelope = PageEnvelope(items: items, total: total, request: page, path: scope.indexURL)
            if isSearch { envelope.extraMeta = [("query", .string(query))] }
            return envelope.response
        }
    }

    /// `{"data": Contact}` for one of the caller's contacts (partial ones in their reduced form).
    static func showContact(_ scope: MonicaScope, id: Int64, status: HTTPResponse.Status = .ok) async throws -> Response
    {
        try await scope.read { sql in
            let row = try await ResourceSteps.ownedContact(sql, scope, id)
            return MonicaResponse.data(try await ContactNesting.present(sql, scope, [row])[0], status: status)
        }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(
            try await scope.input(), id == nil ? Self.createRules : Self.updateRules)
        let birthdate = SpecialDateInput(
            known: input.bool("is_birthdate_known") ?? false, ageBased: input.bool("birthdate_is_age_based") ?? false,
            day: input.int("birthdate_day"), month: input.int("birthdate_month"), year: input.int("birthdate_year"),
            age: input.int("birthdate_age"))
        let deceasedDate = SpecialDateInput(
            known: input.bool("is_deceased_date_known") ?? false, ageBased: false, day: input.int("deceased_date_day"),
            month: input.int("deceased_date_month"), year: input.int("deceased_date_year"), age: nil)
        let problems = birthdate.problems() + deceasedDate.problems()
        if !problems.isEmpty { throw MonicaError.invalid(problems) }

        let today = MonicaDate.today(nowMillis: scope.now)
        var values: [String: DBValue] = [:]
        for name in ["first_name", "middle_name", "last_name", "nickname", "description"]
        where id == nil || input.has(name) {
            values[name] = .text(input.string(name))
        }
        if id == nil || input.has("is_partial") { values["is_partial"] = .bool(input.bool("is_partial") ?? false) }
        if id == nil || input.has("gender_id") { values["gender_id"] = .int(input.int("gender_id")) }
        let birthdateColumns = try birthdate.columns("birthdate", today: today, attribute: "birthdate")
        values.merge(birthdateColumns) { $1 }
        var reminders = [
            DateReminder(
                column: "birthday_reminder_id", title: "Wish happy birthday to",
                day: birthdate.known && !birthdate.ageBased && input.bool("birthdate_add_reminder") == true
                    ? birthdateColumns["birthdate"]?.textValue : nil)
        ]
        // Left out of an update, the death fields stay as they were (Monica failed with a 500).
        if let deceased = input.bool("is_deceased") {
            let known = deceased && deceasedDate.known
            let deceasedColumns = try SpecialDateInput(
                known: known, ageBased: false, day: deceasedDate.day, month: deceasedDate.month,
                year: deceasedDate.year,
                age: nil
            ).columns("deceased_date", today: today, attribute: "deceased date")
            values["is_dead"] = .bool(deceased)
            values.merge(deceasedColumns) { $1 }
            reminders.append(
                DateReminder(
                    column: "deceased_reminder_id", title: "Anniversary of the death of",
                    day: known && input.bool("deceased_date_add_reminder") == true
                        ? deceasedColumns["deceased_date"]?.textValue : nil))
        }
        let genderID = input.int("gender_id")
        let email = input.string("email")
        let uuid = input.string("uuid").flatMap(UUID.init(uuidString:))
        let fields = values
        let dateReminders = reminders
        let saved: Int64 = try await scope.write { sql in
            if let genderID {
                try await ResourceSteps.existing(sql, scope, GenderTable.table, id: genderID, attribute: "gender id")
            }
            let contactID: Int64
            if let id {
                try await ResourceSteps.ownedContact(sql, scope, id)
                try await MonicaQueries.update(
                    sql, ContactTable.table, account: scope.accountID, id: id, now: scope.now, fields)
                contactID = id
            } else {
                // Not MonicaQueries.save: a client may give the contact's uuid.
                contactID = try await MonicaQueries.insert(
                    sql, ContactTable.table, account: scope.accountID, now: scope.now,
                    fields.merging([
                        "uuid": .text((uuid ?? scope.ids.uuid()).lowercased),
                        "avatar_color": .text(scope.ids.pick(ContactTable.avatarColors, or: "#b3d5fe")),
                        "is_active": .bool(true),
                        "is_starred": .bool(false), "search_text": .text(""),
                    ]) { $1 })
                if let email,
                    let emailType = try await ContactFieldTypeTable.all(sql, account: scope.accountID).values
                        .filter({ $0.text("type") == "email" }).min(by: { $0.id < $1.id })
                {
                    _ = try await MonicaQueries.save(
                        sql, ContactFieldTable.table, account: scope.accountID, id: nil, now: scope.now,
                        [
                            "contact_id": .int(contactID), "contact_field_type_id": .int(emailType.id),
                            "data": .text(email),
                        ])
                }
            }
            let row = try await ResourceSteps.ownedContact(sql, scope, contactID)
            for reminder in dateReminders {
                try await ContactReminders.replace(
                    sql, scope, contact: row, column: reminder.column, date: reminder.day,
                    title: "\(reminder.title) \(row.text("first_name") ?? "")")
            }
            try await ContactTable.refreshSearchText(sql, account: scope.accountID, contact: row)
            return contactID
        }
        return try await Self.showContact(scope, id: saved, status: id == nil ? .created : .ok)
    }

    /// Work and food: real (not partial) contacts only; omitted fields become empty.
    private func updateAbout(
        _ scope: MonicaScope, rules: [FieldRules], values: @escaping @Sendable (ValidInput) -> [String: DBValue]
    ) async throws -> Response {
        let id = try scope.id()
        let raw = try await scope.input()
        let contact = try await scope.read { sql in try await ResourceSteps.ownedContact(sql, scope, id) }
        let input = try MonicaValidator.validate(raw, rules)
        try ResourceSteps.requireNotPartial(contact)
        try await scope.write { sql in
            try await MonicaQueries.update(
                sql, ContactTable.table, account: scope.accountID, id: id, now: scope.now, values(input))
            try await ContactTable.refreshSearchText(sql, account: scope.accountID, contactID: id)
        }
        return try await Self.showContact(scope, id: id)
    }

    private static let introductionRules = [
        FieldRules("met_through_contact_id", .nullable, .integer),
        FieldRules("general_information", .nullable, .string, .max(65535)),
        FieldRules("where", .nullable, .string, .max(255)),
        FieldRules("is_date_known", .required, .boolean), FieldRules("is_age_based", .nullable, .boolean),
        FieldRules("day", .nullable, .integer), FieldRules("month", .nullable, .integer),
        FieldRules("year", .nullable, .integer),
        FieldRules("age", .nullable, .integer), FieldRules("add_reminder", .nullable, .boolean),
    ]

    /// How you met: who introduced you, what happened, and when (a date, or an age).
    private func introduction(_ scope: MonicaScope) async throws -> Response {
        let id = try scope.id()
        let raw = try await scope.input()
        let contact = try await scope.read { sql in try await ResourceSteps.ownedContact(sql, scope, id) }
        let input = try MonicaValidator.validate(raw, Self.introductionRules)
        let date = SpecialDateInput(
            known: input.bool("is_date_known") ?? false, ageBased: input.bool("is_age_based") ?? false,
            day: input.int("day"), month: input.int("month"), year: input.int("year"), age: input.int("age"))
        let problems = date.problems()
        if !problems.isEmpty { throw MonicaError.invalid(problems) }
        try ResourceSteps.requireNotPartial(contact)
        let today = MonicaDate.today(nowMillis: scope.now)
        var values = try date.columns("first_met_date", today: today, attribute: "date")
        values["first_met_general_information"] = .text(input.string("general_information"))
        values["first_met_through_contact_id"] = .int(input.int("met_through_contact_id"))
        let metThrough = input.int("met_through_contact_id")
        let wantsReminder = date.known && !date.ageBased && input.bool("add_reminder") == true
        let finalValues = values
        try await scope.write { sql in
            if let metThrough {
                try await ResourceSteps.existing(
                    sql, scope, ContactTable.table, id: metThrough, attribute: "met through contact id")
            }
            try await MonicaQueries.update(
                sql, ContactTable.table, account: scope.accountID, id: id, now: scope.now, finalValues)
            let row = try await ResourceSteps.ownedContact(sql, scope, id)
            try await ContactReminders.replace(
                sql, scope, contact: row, column: "first_met_reminder_id",
                date: wantsReminder ? row.text("first_met_date") : nil,
                title: "Celebrate the day you first met \(row.text("first_name") ?? "")")
        }
        return try await Self.showContact(scope, id: id)
    }
}

/// A reminder of one of a contact's dates: the column that keeps it, its title, and the day it
/// falls on (nil: no reminder).
struct DateReminder {
    let column: String
    let title: String
    let day: String?
}

/// The yearly reminders Monica makes for a contact's dates (birthday, death, first meeting):
/// one per date, replaced when the date changes, gone when it is unset.
enum ContactReminders {
    static func replace(
        _ sql: any SQLDatabase, _ scope: MonicaScope, contact: MonicaRow, column: String, date: String?, title: String
    ) async throws {
        if let old = contact.int(column) {
            try await sql.delete(from: ReminderTable.table.name).where("id", .equal, old)
                .where("account_id", .equal, scope.accountID).run()
        }
        var reminderID: Int64?
        if let date {
            reminderID = try await MonicaQueries.save(
                sql, ReminderTable.table, account: scope.accountID, id: nil, now: scope.now,
                [
                    "contact_id": .int(contact.id), "title": .text(title),
                    "initial_date": .text(date), "frequency_type": .text("year"), "frequency_number": .int(1),
                    "delible": .bool(false),
                ])
        }
        try await sql.update(ContactTable.table.name).set(SQLIdentifier(column), to: SQLBind(DBValue.int(reminderID)))
            .where("id", .equal, contact.id).run()
    }
}
