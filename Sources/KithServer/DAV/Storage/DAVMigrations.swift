/// The DAV adapter's tables (docs/dav.md), listed in `Migrations.all` by version.
extension Migrations {
    /// What each DAV collection last served: its members by resource name, each with the object
    /// it shows (a contact, a reminder), the UID the client knows it by, its entity tag, and the
    /// collection's change number when it last changed (a deletion stays as a tombstone), so a
    /// sync token is a number and a sync downloads only what moved past it. `extras` are the lines
    /// of a client's card or task that Kith has no field for, given back verbatim; `body` is what
    /// the client last wrote, served as it is while Kith's own text of the object is still the
    /// one it made of it (`basis`, a digest of that text).
    ///
    /// A collection belongs to an account (its address book) or a family (its calendar) and goes
    /// with it. `cards_version` moves with every write to an account's Contacts data, so a
    /// collection knows without reading anything else whether it must look again.
    static let dav = Migration(version: 16, name: "dav") { _ in
        [
            """
            CREATE TABLE dav_collections (
                collection TEXT PRIMARY KEY,
                user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
                family_id TEXT REFERENCES families(id) ON DELETE CASCADE,
                source_version TEXT NOT NULL,
                last_seq BIGINT NOT NULL)
            """,
            """
            CREATE TABLE dav_items (
                collection TEXT NOT NULL REFERENCES dav_collections(collection) ON DELETE CASCADE,
                name TEXT NOT NULL,
                object_id TEXT NOT NULL,
                uid TEXT NOT NULL,
                etag TEXT NOT NULL,
                seq BIGINT NOT NULL,
                deleted INTEGER NOT NULL DEFAULT 0,
                extras TEXT NOT NULL DEFAULT '',
                body TEXT NOT NULL DEFAULT '',
                basis TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (collection, name))
            """,
            "CREATE INDEX dav_items_seq ON dav_items(collection, seq)",
            "CREATE INDEX dav_items_object ON dav_items(collection, object_id)",
            "ALTER TABLE monica_accounts ADD COLUMN cards_version BIGINT NOT NULL DEFAULT 0",
        ]
    }
}
