import Foundation
import KithCore

enum AuditLogPresenter {
    /// Every entry's author is the account's one user (a Kith account has one), named as `/api/me`
    /// names it.
    static func present(_ record: AuditLogRecord, author: JSONTree) -> JSONTree {
        .object(
            JSONObject([
                ("id", .int(record.id)), ("object", "auditlog"), ("author", author), ("action", .string(record.action)),
                ("objects", JSONTree.parse(Data(record.objects.utf8)) ?? .null),
                ("audited_at", .string(MonicaTimestamp.format(millis: record.auditedAt))),
                ("created_at", .nullable(MonicaTimestamp.format(millis: record.createdAt))),
                ("updated_at", .nullable(MonicaTimestamp.format(millis: record.updatedAt))),
            ]))
    }
}
