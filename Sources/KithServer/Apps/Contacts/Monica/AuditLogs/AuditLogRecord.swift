import Foundation
import KithCore

/// A row of `monica_audit_logs`: one thing done in the account, when, and to which contact.
struct AuditLogRecord: MonicaRecord {
    static let table = "monica_audit_logs"

    let id: Int64
    let aboutContactID: Int64?
    /// Monica's action names: `contact_created`, `contact_work_updated`,
    /// `contact_description_updated`, `contact_description_cleared`, `company_created`.
    let action: String
    /// A JSON object naming what the action was about (`{"contact_name", "contact_id"}`).
    let objects: String
    let auditedAt: Int64
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, action, objects
        case aboutContactID = "about_contact_id", auditedAt = "audited_at"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension MonicaStorage {
    /// Notes `action` in the account's audit log, in the change's own transaction: `objects`
    /// names what it was about (by default the contact's name and id). Kith logs the actions
    /// Monica logs, where Monica logs them.
    func audit(_ action: String, about contact: ContactRecord?, objects: JSONTree? = nil, now: Int64) async throws {
        let named: JSONTree =
            objects ?? contact.map { ["contact_name": .string($0.completeName), "contact_id": .int($0.id)] } ?? [:]
        try await table(AuditLogRecord.self).insert(
            [
                "about_contact_id": .int(contact?.id), "action": .text(action),
                "objects": .text(String(decoding: named.serialized(), as: UTF8.self)), "audited_at": .int(now),
            ], now: now)
    }
}
