import Foundation
import KithCore
import SQLKit

/// Contacts, with what they show. Every write refreshes the words search matches and moves the
/// account's contacts version, so every server's search index sees it.
struct ContactRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource
    let index: ContactIndex
    /// Locates the addresses a card writes (CardDAV, a vCard import), as `/api` does.
    let geocoding: AddressGeocoding

    /// A page of the index: real (not partial), active contacts, in the requested order. The
    /// order and the total come from `ContactIndex`; only the page's contacts are read.
    func list(account: MonicaAccount, _ page: PageRequest, withContactFields: Bool) async throws
        -> RecordPage<ContactDetails>
    {
        let listed = try await index.list(account: account, page, load: { try await indexRows(account.id) })
        return try await contacts(listed.ids, total: listed.total, account: account.id, withContactFields)
    }

    /// `?query=`: `Field:value` finds contacts whose field of that type (Email, Phone…) starts with
    /// the value; anything else is a name search ranked as `NameSearch` does. Partial contacts are
    /// never found; archived ones are, as in Monica.
    func search(account: MonicaAccount, query: String, _ page: PageRequest, withContactFields: Bool) async throws
        -> RecordPage<ContactDetails>
    {
        let ids: [Int64]
        if let colon = query.lastIndex(of: ":"), colon != query.startIndex, query.index(after: colon) != query.endIndex
        {
            let found = try await fieldSearch(
                account: account.id, field: String(query[..<colon]), value: String(query[query.index(after: colon)...]))
            ids = try await index.ordered(found, account: account, page) { try await indexRows(account.id) }
        } else if let search = NameSearch(query) {
            ids = try await index.search(account: account, search, page) { try await indexRows(account.id) }
        } else {
            ids = []
        }
        let pageIDs = Array(ids.dropFirst(page.offset).prefix(page.limit))
        return try await contacts(pageIDs, total: ids.count, account: account.id, withContactFields)
    }

    /// The contacts `ids` in full, in that order, as one page of `total`.
    private func contacts(_ ids: [Int64], total: Int, account: Int64, _ withContactFields: Bool) async throws
        -> RecordPage<ContactDetails>
    {
        try await reading(account) { storage in
            RecordPage(
                records: try await storage.details.details(ofContacts: ids, withContactFields: withContactFields),
                total: total)
        }
    }

    /// Contact `id` in full, or 404 (another account's contact is not there).
    func details(account: Int64, id: Int64, withContactFields: Bool) async throws -> ContactDetails {
        try await reading(account) { storage in
            try await Self.details(id, storage, withContactFields: withContactFields)
        }
    }

    /// 404 unless contact `id` is the account's.
    func requireExists(account: Int64, id: Int64) async throws {
        _ = try await reading(account) { storage in try await storage.contacts.require(id) }
    }

    func create(account: Int64, _ change: ContactChange, now: Int64, withContactFields: Bool) async throws
        -> ContactDetails
    {
        try await writing(account) { storage in
            let gender = try await checkGender(change, storage)
            var values = Self.columns(of: change, creating: true)
            values["uuid"] = .text((change.uuid ?? ids.uuid()).lowercased)
            values["avatar_color"] = .text(ids.pick(ContactRecord.avatarColors, or: "#b3d5fe"))
            values["is_active"] = .bool(true)
            values["is_starred"] = .bool(false)
            let emailType = change.email == nil ? nil : try await Self.emailType(storage)
            let emails = emailType == nil ? [] : change.email.map { [$0] } ?? []
            values["search_text"] = .text(MonicaStorage.searchText(ofNew: values, emails: emails))
            var contact = try await storage.contacts.insert(values, now: now)
            try await storage.contactsChanged()
            try await storage.audit("contact_created", about: contact, now: now)
            var fields: [(field: ContactFieldRecord, type: ContactFieldTypeRecord?)] = []
            if let email = change.email, let emailType {
                let field = try await storage.table(ContactFieldRecord.self).insert(
                    [
                        "uuid": .text(ids.text()), "contact_id": .int(contact.id),
                        "contact_field_type_id": .int(emailType.id),
                        "data": .text(email),
                    ], now: now)
                fields.append((field, emailType))
            }
            var reminders = 0
            for reminder in change.reminders where reminder.day != nil {
                contact = try await replaceReminder(reminder, of: contact, storage, now: now)
                reminders += 1
            }
            return storage.details.details(
                ofNew: contact, gender: gender, reminders: reminders, fields: fields,
                withContactFields: withContactFields)
        }
    }

    /// Changes contact `id` as `change` says, if it is still a version `ifMatch` names.
    func update(
        account: Int64, id: Int64, ifMatch: IfMatch?, _ change: ContactChange, now: Int64, withContactFields: Bool
    ) async throws -> ContactDetails {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ContactRecord.self, id: id)
            try await checkGender(change, storage)
            let before = try await storage.contacts.require(id)
            let contact = try await storage.contacts.update(id, Self.columns(of: change, creating: false), now: now)
            // Monica logs a cleared description at every update without one; Kith, a change.
            if contact.description != before.description {
                let action = contact.description == nil ? "contact_description_cleared" : "contact_description_updated"
                try await storage.audit(action, about: contact, now: now)
            }
            return try await finish(contact, change.reminders, storage, now: now, withContactFields: withContactFields)
        }
    }

    /// Deletes contact `id` (if it is still a version `ifMatch` names) and what hangs off it
    /// (foreign keys: fields, addresses, notes, tasks, gifts, reminders, tag links, attendance,
    /// relationships); the account's "me" if it was.
    func delete(account: MonicaAccount, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account.id) { storage in
            try await storage.check(ifMatch, ContactRecord.self, id: id)
            _ = try await storage.contacts.require(id)
            try await storage.contacts.delete(id)
            try await storage.contactsChanged()
            if account.meContactID == id {
                try await storage.sql.update("monica_accounts").set("me_contact_id", to: SQLBind(DBValue.null))
                    .where("id", .equal, account.id).run()
            }
        }
    }

    /// Job and company, or food preferences: real (not partial) contacts only, still a version
    /// `ifMatch` names.
    func setAbout(
        account: Int64, id: Int64, ifMatch: IfMatch?, _ values: [String: String?], now: Int64, withContactFields: Bool
    ) async throws -> ContactDetails {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ContactRecord.self, id: id)
            let contact = try await storage.contacts.require(id)
            try Self.requireNotPartial(contact)
            let updated = try await storage.contacts.update(id, values.mapValues { .text($0) }, now: now)
            if values.keys.contains("job") { try await storage.audit("contact_work_updated", about: updated, now: now) }
            try await storage.refreshSearchText(of: updated)
            return try await storage.details.details(of: updated, withContactFields: withContactFields)
        }
    }

    /// How you met, on contact `id` if it is still a version `ifMatch` names.
    func setIntroduction(
        account: Int64, id: Int64, ifMatch: IfMatch?, _ change: IntroductionChange, now: Int64, withContactFields: Bool
    ) async throws -> ContactDetails {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ContactRecord.self, id: id)
            let contact = try await storage.contacts.require(id)
            try Self.requireNotPartial(contact)
            if let metThrough = change.metThroughContactID {
                _ = try await storage.contacts.existing(metThrough, attribute: "met through contact id")
            }
            var values = change.date.columns("first_met_date")
            values["first_met_general_information"] = .text(change.generalInformation)
            values["first_met_through_contact_id"] = .int(change.metThroughContactID)
            let updated = try await storage.contacts.update(id, values, now: now)
            // Its updated_at moved: the list sorted by it is served from ContactIndex.
            try await storage.contactsChanged()
            let reminded = try await replaceReminder(
                .firstMet(change.wantsReminder ? updated.firstMetDateValue.day : nil), of: updated, storage, now: now)
            return try await storage.details.details(of: reminded, withContactFields: withContactFields)
        }
    }

    /// Checks a contact is whole before its about fields change (Monica's services refuse partial ones).
    func requireNotPartial(account: Int64, id: Int64) async throws {
        try await reading(account) { storage in try Self.requireNotPartial(try await storage.contacts.require(id)) }
    }

    // MARK: Inside the transaction

    /// The end of an update of `contact` (as just written): its date reminders, its search words,
    /// and the contact in full.
    private func finish(
        _ contact: ContactRecord, _ reminders: [DateReminder], _ storage: MonicaStorage, now: Int64,
        withContactFields: Bool
    ) async throws -> ContactDetails {
        var contact = contact
        for reminder in reminders { contact = try await replaceReminder(reminder, of: contact, storage, now: now) }
        try await storage.refreshSearchText(of: contact)
        return try await storage.details.details(of: contact, withContactFields: withContactFields)
    }

    /// The yearly reminder of one of the contact's dates: replaced when the date changes, gone when
    /// unset. The contact as it is afterwards.
    func replaceReminder(_ reminder: DateReminder, of contact: ContactRecord, _ storage: MonicaStorage, now: Int64)
        async throws -> ContactRecord
    {
        let current: Int64? =
            switch reminder.column {
            case "birthday_reminder_id": contact.birthdayReminderID
            case "deceased_reminder_id": contact.deceasedReminderID
            default: contact.firstMetReminderID
            }
        // No reminder before or after (a contact without that date): nothing to write.
        if current == nil && reminder.day == nil { return contact }
        if let current { try await storage.table(ReminderRecord.self).delete(current) }
        var reminderID: Int64?
        if let day = reminder.day {
            reminderID =
                try await storage.table(ReminderRecord.self).insert(
                    [
                        "uuid": .text(ids.text()), "contact_id": .int(contact.id),
                        "title": .text("\(reminder.title) \(contact.firstName)"), "initial_date": .text(day.ymd),
                        "frequency_type": .text("year"), "frequency_number": .int(1), "delible": .bool(false),
                    ], now: now
                ).id
        }
        // The column is one of the contact's three reminder columns, named by the code.
        guard
            let row = try await storage.sql.raw(
                """
                UPDATE monica_contacts SET \(unsafeRaw: reminder.column) = \(bind: DBValue.int(reminderID))
                WHERE id = \(bind: contact.id) RETURNING *
                """
            ).first()
        else { throw MonicaError.notFound }
        return try row.record(ContactRecord.self)
    }

    /// The gender the change sets, checked to be the account's; nil when it sets none.
    @discardableResult
    func checkGender(_ change: ContactChange, _ storage: MonicaStorage) async throws -> GenderRecord? {
        guard case .some(.some(let genderID)) = change.genderID else { return nil }
        return try await storage.table(GenderRecord.self).existing(genderID, attribute: "gender id")
    }

    static func columns(of change: ContactChange, creating: Bool) -> MonicaColumns {
        var values: MonicaColumns = change.birthdate.columns("birthdate")
        for (column, value) in change.names { values[column] = .text(value) }
        if let isPartial = change.isPartial { values["is_partial"] = .bool(isPartial) }
        if let genderID = change.genderID { values["gender_id"] = .int(genderID) }
        if let death = change.death {
            values["is_dead"] = .bool(death.isDead)
            values.merge(death.date.columns("deceased_date")) { $1 }
        }
        return values
    }

    private static func emailType(_ storage: MonicaStorage) async throws -> ContactFieldTypeRecord? {
        try await storage.table(ContactFieldTypeRecord.self).all().filter { $0.type == "email" }.min { $0.id < $1.id }
    }

    private static func details(_ id: Int64, _ storage: MonicaStorage, withContactFields: Bool) async throws
        -> ContactDetails
    {
        try await storage.details.details(ofContact: id, withContactFields: withContactFields)
    }

    private static func requireNotPartial(_ contact: ContactRecord) throws {
        if contact.isPartial { throw MonicaError.invalid("The contact can't be a partial contact") }
    }

    // MARK: Search

    /// What `ContactIndex` keeps of the account's real contacts.
    private func indexRows(_ account: Int64) async throws -> [ContactIndex.Row] {
        try await reading(account) { storage in
            try await storage.sql.select()
                .columns("id", "search_text", "first_name", "last_name", "created_at", "updated_at", "is_active")
                .from(ContactRecord.table).where("account_id", .equal, account).where("is_partial", .equal, 0)
                .orderBy("id").all()
                .map { row in
                    ContactIndex.Row(
                        id: try row.decode(column: "id", as: Int64.self),
                        searchText: try row.decode(column: "search_text", as: String.self),
                        firstName: try row.decode(column: "first_name", as: String?.self) ?? "",
                        lastName: try row.decode(column: "last_name", as: String?.self) ?? "",
                        createdAt: try row.decode(column: "created_at", as: Int64.self),
                        updatedAt: try row.decode(column: "updated_at", as: Int64.self),
                        isActive: try row.decode(column: "is_active", as: Int64.self) != 0)
                }
        }
    }

    /// The real contacts with a field of type `field` whose value starts with `value`, in no order.
    private func fieldSearch(account: Int64, field: String, value: String) async throws -> [Int64] {
        let prefix =
            value.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        return try await reading(account) { storage in
            try await storage.sql.raw(
                """
                SELECT c.id FROM monica_contacts c
                WHERE c.account_id = \(bind: account) AND c.is_partial = 0 AND EXISTS (
                    SELECT 1 FROM monica_contact_fields f
                    JOIN monica_contact_field_types t ON t.id = f.contact_field_type_id
                    WHERE f.contact_id = c.id AND f.account_id = \(bind: account)
                    AND LOWER(t.name) = \(bind: field.lowercased()) AND LOWER(f.data) LIKE \(bind: prefix) ESCAPE '\\')
                """
            ).all(decodingColumn: "id", as: Int64.self)
        }
    }
}
