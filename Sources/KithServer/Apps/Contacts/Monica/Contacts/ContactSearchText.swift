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

    /// The same when the caller knows the contact's email addresses, in the order they were added.
    private func setSearchText(of contact: ContactRecord, emails: [String]) async throws {
        let words = NameSearch.searchText(
            of: Self.searchedColumns.map { Self.searchedField($0, of: contact) } + emails)
        try await sql.raw("UPDATE monica_contacts SET search_text = \(bind: words) WHERE id = \(bind: contact.id)").run()
        try await contactsChanged()
    }

    /// The contact's columns whose words search matches, besides its email addresses.
    static let searchedColumns = ["first_name", "middle_name", "last_name", "nickname", "job", "company"]

    private static func searchedField(_ column: String, of contact: ContactRecord) -> String? {
        switch column {
        case "first_name": contact.firstName
        case "middle_name": contact.middleName
        case "last_name": contact.lastName
        case "nickname": contact.nickname
        case "job": contact.job
        default: contact.company
        }
    }

    /// The words of a contact about to be inserted with `columns` and `emails`, so that its insert
    /// writes them (what `setSearchText` would write once it is stored).
    static func searchText(ofNew columns: MonicaColumns, emails: [String]) -> String {
        NameSearch.searchText(of: searchedColumns.map { columns[$0]?.textValue } + emails)
    }
}
