import Foundation
import SQLKit

extension ContactRepository {
    /// Merges contact `otherID` into contact `keptID`, in one transaction: the kept contact's blank
    /// names, gender, dates, work, food preferences and how you met are filled from the other; every
    /// contact field, address, note, task, reminder, gift, call, debt, pet, conversation,
    /// occupation, life event, document, photo, tag, activity and relationship of the other moves
    /// to the kept one (one that would repeat what the kept contact has already, or
    /// relate it to itself, is dropped); whatever pointed at the other (the account's "me", a gift's
    /// recipient, who introduced someone) points at the kept one; then the other is deleted.
    /// 404 when either is not the account's; `ifMatch` names the kept contact's version.
    func merge(
        account: MonicaAccount, keptID: Int64, otherID: Int64, ifMatch: IfMatch?, now: Int64, withContactFields: Bool
    ) async throws -> ContactDetails {
        try await writing(account.id) { storage in
            try await storage.check(ifMatch, ContactRecord.self, id: keptID)
            let kept = try await storage.contacts.require(keptID)
            let other = try await storage.contacts.existing(otherID, attribute: "contact id")
            guard kept.id != other.id else { throw MonicaError.invalid("A contact cannot be merged with itself.") }
            if kept.isPartial || other.isPartial {
                throw MonicaError.invalid("The contact can't be a partial contact")
            }
            let merging = ContactMergeSQL(storage: storage, kept: kept.id, other: other.id, now: now)

            // The other's reminders of its own dates go; those of a date the kept contact takes
            // are made again for it, titled with its name.
            let takes = ContactMergeValues(kept: kept, other: other)
            for id in [other.birthdayReminderID, other.deceasedReminderID, other.firstMetReminderID].compactMap({ $0 })
            {
                try await storage.table(ReminderRecord.self).delete(id)
            }
            var contact = try await storage.contacts.update(kept.id, takes.columns, now: now)
            for reminder in takes.reminders(other: other) {
                contact = try await replaceReminder(reminder, of: contact, storage, now: now)
            }

            try await merging.dropRepeatedFields()
            try await merging.dropRepeatedAddresses()
            for table in [
                "monica_contact_fields", "monica_addresses", "monica_notes", "monica_tasks", "monica_reminders",
                "monica_gifts", CallRecord.table, DebtRecord.table, PetRecord.table, "monica_conversations",
                "monica_messages",
                OccupationRecord.table, LifeEventRecord.table, DocumentRecord.table, PhotoRecord.table,
            ] {
                try await merging.move(table, column: "contact_id")
            }
            try await merging.move("monica_gifts", column: "recipient_id")
            try await merging.move("monica_contacts", column: "first_met_through_contact_id")
            try await merging.forgetSelfIntroduction()
            try await merging.moveTags()
            try await merging.moveAttendance()
            try await merging.moveRelationships()
            if account.meContactID == other.id {
                try await storage.sql.update("monica_accounts").set("me_contact_id", to: SQLBind(kept.id))
                    .where("id", .equal, account.id).run()
            }
            try await storage.contacts.delete(other.id)
            try await storage.contactsChanged()
            contact = try await storage.contacts.require(kept.id)
            try await storage.refreshSearchText(of: contact)
            return try await storage.details.details(of: contact, withContactFields: withContactFields)
        }
    }
}

/// What the kept contact takes from the other: each blank filled, never a value replaced.
struct ContactMergeValues {
    let kept: ContactRecord
    let other: ContactRecord

    var takesBirthdate: Bool { kept.birthdate == nil && other.birthdate != nil }
    var takesDeath: Bool { !kept.isDead && other.isDead }
    var takesFirstMet: Bool { kept.firstMetDate == nil && other.firstMetDate != nil }

    var columns: MonicaColumns {
        var values: MonicaColumns = [:]
        func fill(_ column: String, _ mine: String?, _ theirs: String?) {
            if mine?.isEmpty ?? true, let theirs, !theirs.isEmpty { values[column] = .text(theirs) }
        }
        fill("middle_name", kept.middleName, other.middleName)
        fill("last_name", kept.lastName, other.lastName)
        fill("nickname", kept.nickname, other.nickname)
        fill("description", kept.description, other.description)
        fill("job", kept.job, other.job)
        fill("company", kept.company, other.company)
        fill("food_preferences", kept.foodPreferences, other.foodPreferences)
        fill("first_met_general_information", kept.firstMetGeneralInformation, other.firstMetGeneralInformation)
        if kept.genderID == nil, let gender = other.genderID { values["gender_id"] = .int(gender) }
        if kept.firstMetThroughContactID == nil, let through = other.firstMetThroughContactID, through != kept.id {
            values["first_met_through_contact_id"] = .int(through)
        }
        if kept.stayInTouchFrequency == nil, let frequency = other.stayInTouchFrequency {
            values["stay_in_touch_frequency"] = .int(frequency)
            values["stay_in_touch_trigger_date"] = .int(other.stayInTouchTriggerDate)
        }
        if let called = other.lastCalled, called > (kept.lastCalled ?? .min) { values["last_called"] = .int(called) }
        if other.isStarred { values["is_starred"] = .bool(true) }
        if takesBirthdate {
            values["birthdate"] = .text(other.birthdate)
            values["birthdate_is_age_based"] = .bool(other.birthdateIsAgeBased)
            values["birthdate_is_year_unknown"] = .bool(other.birthdateIsYearUnknown)
        }
        if takesDeath {
            values["is_dead"] = .bool(true)
            values["deceased_date"] = .text(other.deceasedDate)
            values["deceased_date_is_age_based"] = .bool(other.deceasedDateIsAgeBased)
            values["deceased_date_is_year_unknown"] = .bool(other.deceasedDateIsYearUnknown)
        }
        if takesFirstMet {
            values["first_met_date"] = .text(other.firstMetDate)
            values["first_met_date_is_age_based"] = .bool(other.firstMetDateIsAgeBased)
            values["first_met_date_is_year_unknown"] = .bool(other.firstMetDateIsYearUnknown)
        }
        return values
    }

    /// The yearly reminders the other had for the dates the kept contact takes.
    func reminders(other: ContactRecord) -> [DateReminder] {
        var reminders: [DateReminder] = []
        if takesBirthdate, other.birthdayReminderID != nil {
            reminders.append(.birthday(other.birthdateValue.day))
        }
        if takesDeath, other.deceasedReminderID != nil {
            reminders.append(.deathAnniversary(other.deceasedDateValue.day))
        }
        if takesFirstMet, other.firstMetReminderID != nil {
            reminders.append(.firstMet(other.firstMetDate.flatMap(MonicaDate.init(ymd:))))
        }
        return reminders
    }
}

/// The statements that move one contact's rows to another, within the account, each moving the
/// rows' versions forward as every change does (`MonicaTableStore.update`).
struct ContactMergeSQL {
    let storage: MonicaStorage
    let kept: Int64
    let other: Int64
    let now: Int64

    private var account: Int64 { storage.account }

    func move(_ table: String, column: String) async throws {
        // Table and column names come from the code, never from a request.
        try await storage.sql.raw(
            """
            UPDATE \(unsafeRaw: table) SET \(unsafeRaw: column) = \(bind: kept), updated_at = CASE
            WHEN updated_at >= \(bind: now) AND updated_at < \(bind: Int64.max) THEN updated_at + 1 ELSE \(bind: now) END
            WHERE account_id = \(bind: account) AND \(unsafeRaw: column) = \(bind: other)
            """
        ).run()
    }

    /// The kept contact was introduced by the other: after the merge, by nobody.
    func forgetSelfIntroduction() async throws {
        try await storage.sql.raw(
            """
            UPDATE monica_contacts SET first_met_through_contact_id = NULL
            WHERE account_id = \(bind: account) AND id = \(bind: kept) AND first_met_through_contact_id = \(bind: kept)
            """
        ).run()
    }

    /// The other's fields of a type and value the kept contact has already.
    func dropRepeatedFields() async throws {
        let fields = storage.table(ContactFieldRecord.self)
        let keptFields = try await fields.all(where: "contact_id", in: [kept])
        for field in try await fields.all(where: "contact_id", in: [other])
        where keptFields.contains(where: {
            $0.contactFieldTypeID == field.contactFieldTypeID && $0.data == field.data
        }) {
            try await fields.delete(field.id)
        }
    }

    /// The other's addresses that are the same as one of the kept contact's, field for field.
    func dropRepeatedAddresses() async throws {
        func same(_ a: AddressRecord, _ b: AddressRecord) -> Bool {
            a.name == b.name && a.street == b.street && a.city == b.city && a.province == b.province
                && a.postalCode == b.postalCode && a.country == b.country && a.latitude == b.latitude
                && a.longitude == b.longitude
        }
        let addresses = storage.table(AddressRecord.self)
        let keptAddresses = try await addresses.all(where: "contact_id", in: [kept])
        for address in try await addresses.all(where: "contact_id", in: [other])
        where keptAddresses.contains(where: { same($0, address) }) {
            try await addresses.delete(address.id)
        }
    }

    /// The other's tags on the kept contact too (the other's links go with it).
    func moveTags() async throws {
        try await storage.sql.raw(
            """
            INSERT INTO monica_contact_tags (contact_id, tag_id, account_id, created_at)
            SELECT \(bind: kept), tag_id, account_id, created_at FROM monica_contact_tags
            WHERE account_id = \(bind: account) AND contact_id = \(bind: other)
            AND tag_id NOT IN (SELECT tag_id FROM monica_contact_tags WHERE contact_id = \(bind: kept))
            """
        ).run()
    }

    /// The other's activities with the kept contact among those who were there.
    func moveAttendance() async throws {
        try await storage.sql.raw(
            """
            UPDATE monica_activity_contacts SET contact_id = \(bind: kept)
            WHERE account_id = \(bind: account) AND contact_id = \(bind: other)
            AND activity_id NOT IN (SELECT activity_id FROM monica_activity_contacts WHERE contact_id = \(bind: kept))
            """
        ).run()
    }

    /// The other's relationships as the kept contact's: those between the two go (a contact is not
    /// its own friend), and of two the same (type and both sides), the older stays.
    func moveRelationships() async throws {
        try await storage.sql.raw(
            """
            DELETE FROM monica_relationships WHERE account_id = \(bind: account)
            AND ((contact_is = \(bind: kept) AND of_contact = \(bind: other))
            OR (contact_is = \(bind: other) AND of_contact = \(bind: kept)))
            """
        ).run()
        try await move("monica_relationships", column: "contact_is")
        try await move("monica_relationships", column: "of_contact")
        try await storage.sql.raw(
            """
            DELETE FROM monica_relationships WHERE account_id = \(bind: account)
            AND (contact_is = \(bind: kept) OR of_contact = \(bind: kept))
            AND EXISTS (SELECT 1 FROM monica_relationships older WHERE older.account_id = monica_relationships.account_id
            AND older.relationship_type_id = monica_relationships.relationship_type_id
            AND older.contact_is = monica_relationships.contact_is AND older.of_contact = monica_relationships.of_contact
            AND older.id < monica_relationships.id)
            """
        ).run()
    }
}
