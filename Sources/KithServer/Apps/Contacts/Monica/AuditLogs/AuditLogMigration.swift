/// What happened in an account, as Monica's audit log records it; listed in `Migrations.all` by
/// version.
extension Migrations {
    static let monicaAuditLogs = Migration(version: 22, name: "monica audit logs") { engine in
        [
            // `about_contact_id` is cleared, not cascaded, when the contact goes: the entry
            // (which names the contact in `objects`) stays in the account's history.
            """
            CREATE TABLE monica_audit_logs (
                \(serialKey(engine)),
                account_id BIGINT NOT NULL REFERENCES monica_accounts(id) ON DELETE CASCADE,
                about_contact_id BIGINT REFERENCES monica_contacts(id) ON DELETE SET NULL,
                action TEXT NOT NULL, objects TEXT NOT NULL, audited_at BIGINT NOT NULL,
                created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL)
            """,
            "CREATE INDEX monica_audit_logs_created ON monica_audit_logs(account_id, created_at, id)",
            "CREATE INDEX monica_audit_logs_contact ON monica_audit_logs(about_contact_id)",
        ]
    }
}
