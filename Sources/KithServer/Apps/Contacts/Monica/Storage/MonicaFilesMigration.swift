/// Documents and photos, with their bytes, and a contact's avatar: listed in `Migrations.all` by
/// version. The bytes live in tables of their own (`…_contents`), one row per file, so listing
/// files never reads them, and a file's bytes go with its row (foreign keys) when it, its
/// contact or its account is deleted.
extension Migrations {
    static let monicaFiles = Migration(version: 21, name: "monica documents, photos and avatars") { engine in
        let key = serialKey(engine)
        let bytes = engine == .sqlite ? "BLOB" : "BYTEA"
        let account = "account_id BIGINT NOT NULL REFERENCES monica_accounts(id) ON DELETE CASCADE"
        let contact = "contact_id BIGINT NOT NULL REFERENCES monica_contacts(id) ON DELETE CASCADE"
        let times = "created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL"
        let file = """
            original_filename TEXT NOT NULL, new_filename TEXT NOT NULL, filesize BIGINT NOT NULL, \
            mime_type TEXT NOT NULL
            """
        return [
            """
            CREATE TABLE monica_documents (
                \(key), uuid TEXT NOT NULL, \(account), \(contact), \(file), type TEXT NOT NULL,
                number_of_downloads BIGINT NOT NULL DEFAULT 0, \(times))
            """,
            "CREATE INDEX monica_documents_contact ON monica_documents(contact_id)",
            "CREATE INDEX monica_documents_account_contact ON monica_documents(account_id, contact_id)",
            "CREATE INDEX monica_documents_created ON monica_documents(account_id, created_at, id)",
            """
            CREATE TABLE monica_document_contents (
                document_id BIGINT PRIMARY KEY REFERENCES monica_documents(id) ON DELETE CASCADE,
                \(account), content \(bytes) NOT NULL)
            """,
            """
            CREATE TABLE monica_photos (
                \(key), uuid TEXT NOT NULL, \(account), \(contact), \(file), \(times))
            """,
            "CREATE INDEX monica_photos_contact ON monica_photos(contact_id)",
            "CREATE INDEX monica_photos_account_contact ON monica_photos(account_id, contact_id)",
            "CREATE INDEX monica_photos_created ON monica_photos(account_id, created_at, id)",
            """
            CREATE TABLE monica_photo_contents (
                photo_id BIGINT PRIMARY KEY REFERENCES monica_photos(id) ON DELETE CASCADE,
                \(account), content \(bytes) NOT NULL)
            """,
            // A gift's photos (Monica's `gift_photo`).
            """
            CREATE TABLE monica_gift_photos (
                gift_id BIGINT NOT NULL REFERENCES monica_gifts(id) ON DELETE CASCADE,
                photo_id BIGINT NOT NULL REFERENCES monica_photos(id) ON DELETE CASCADE,
                \(account), PRIMARY KEY (gift_id, photo_id))
            """,
            "CREATE INDEX monica_gift_photos_photo ON monica_gift_photos(photo_id)",
            // What a contact's avatar shows: `default` (its initials on its colour), `gravatar`
            // (by its email, whose picture's address is kept) or `photo` (one of its photos);
            // null is `default`.
            "ALTER TABLE monica_contacts ADD COLUMN avatar_source TEXT",
            "ALTER TABLE monica_contacts ADD COLUMN avatar_photo_id BIGINT REFERENCES monica_photos(id) ON DELETE SET NULL",
            "ALTER TABLE monica_contacts ADD COLUMN avatar_gravatar_url TEXT",
        ]
    }
}
