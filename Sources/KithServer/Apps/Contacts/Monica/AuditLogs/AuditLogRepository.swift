import Foundation
import SQLKit

/// A page of the audit log, with the name of the account's user (its "me" contact's name).
struct AuditLogPage: Sendable {
    let entries: RecordPage<AuditLogRecord>
    let meName: String?
}

struct AuditLogRepository: MonicaRepository {
    let database: KithDatabase

    /// A page of the account's log, or of what it says about one of its contacts (another
    /// account's contact is 404).
    func page(account: MonicaAccount, aboutContact contactID: Int64?, _ page: PageRequest) async throws
        -> AuditLogPage
    {
        try await reading(account.id) { storage in
            if let contactID { _ = try await storage.contacts.require(contactID) }
            let entries = try await storage.table(AuditLogRecord.self).page(
                page, filter: contactID.map { equals("about_contact_id", $0) })
            let me = try await account.meContactID.asyncMap { try await storage.contacts.find($0) } ?? nil
            return AuditLogPage(entries: entries, meName: me?.completeName)
        }
    }
}
