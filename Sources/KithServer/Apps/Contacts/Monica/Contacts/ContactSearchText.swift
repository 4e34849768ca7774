import Foundation
import KithCore
import SQLKit

extension MonicaStorage {
    /// Recomputes the words contact search matches after the contact or one of its email fields
    /// changed: names, nickname, job, company and email addresses (`NameSearch`), and tells every
    /// server's search index the account's contacts changed.
    func refreshSearchText(of contactID: Int64) async throws {
        guard let contact = try await contacts.find(contactID) else { return }
        try await refreshSearchText(of: contact)
    }

    /// The same for a contact just read or written (its names as they are now).
    func refreshSearchText(of contact: ContactRecord) async throws {
        let emails = try await sql.raw(
            """
            SELECT f.data FROM monica_contact_fields f JOIN monica_contact_field_types t ON t.id = f.contact_field_type_id
            WHERE f.contact_id = \(bind: contact.id) AND t.type = 'email' ORDER BY f.id
            """
        ).all(decodingColumn: "data", as: String.self)
        try await setSearchText(of: contact, emails: emails)
    }

    /// The same when the caller knows the contact's email addresses, in the order they were added
    /// (a contact it has just created).
    func setSearchText(of contact: ContactRecord, emails: [String]) async throws {
        let words = NameSearch.searchText(
            of: [contact.firstName, contact.middleName, contact.lastName, contact.nickname, contact.job, contact.company]
                + emails)
        try await sql.raw("UPDATE monica_contacts SET search_text = \(bind: words) WHERE id = \(bind: contact.id)").run()
        try await contactsChanged()
    }
}
