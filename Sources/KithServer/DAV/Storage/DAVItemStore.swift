import Crypto
import Foundation
import SQLKit

/// One member of a DAV collection as last served: the resource name a client reaches it by, the
/// object it shows, the UID inside it, its entity tag, the change number when it last changed.
struct DAVItem: Sendable, Equatable {
    let name: String
    let objectID: String
    let uid: String
    let etag: String
    let seq: Int64
    let isDeleted: Bool
    /// Lines of a client's body Kith has no field for, given back verbatim.
    let extras: String
    /// What the client last wrote, while it is still what the member is (`servesClientBody`).
    let body: String
    /// A digest of Kith's own text of the object when the client wrote `body`.
    let basis: String

    /// Whether the member is served as the client wrote it: its tag is then the body's digest, so
    /// the client that wrote it holds exactly what the server serves (RFC 4791 §5.3.4), and a
    /// change made anywhere else gives the member Kith's own text and a new tag.
    var servesClientBody: Bool { !body.isEmpty && etag == DAVItemStore.digest(body) }
}

/// Where a collection's members come from: the app that owns the data.
protocol DAVCollectionSource: Sendable {
    /// The collection's key in `dav_collections` (one per address book, one per family calendar).
    var collectionKey: String { get }
    /// Who the collection belongs to, so it goes with them.
    var owner: DAVCollectionOwner { get }
    /// The file name ending of a member (".vcf", ".ics").
    var memberSuffix: String { get }
    /// Changes whenever anything any member shows may have changed; cheap to read.
    func version() async throws -> String
    /// Every member as it is now: object id → its text in a fixed form (its own UID and the
    /// client's extra lines left out: they are the item's). Its digest is the member's version.
    func contents() async throws -> [String: String]
}

enum DAVCollectionOwner: Sendable {
    case user(String)
    case family(String)
}

/// The collections' members and change numbers (`dav_collections`, `dav_items`). A collection is
/// brought up to date when it is read (`current`): if its source's version moved, every member's
/// text is compared with what was last served, and each one that changed, appeared or went gets
/// the next change number. So a change made anywhere (the web, `/api`, the CLI, a phone's sync)
/// reaches DAV clients on their next request, and a sync token is just a change number.
struct DAVItemStore: Sendable {
    let database: KithDatabase

    /// Bumped when the way members are written changes, so every client downloads them again.
    static let renderingVersion = "1"

    /// The collection's members (tombstones included) and its change number, brought up to date.
    func current(_ source: some DAVCollectionSource) async throws -> DAVCollectionState {
        let stored = try await state(source.collectionKey)
        let version = Self.renderingVersion + ":" + (try await source.version())
        if stored?.sourceVersion == version, let stored { return stored }
        let contents = try await source.contents()
        return try await reconcile(
            source, from: stored?.sourceVersion, startSeq: stored?.lastSeq ?? 0, to: version, contents: contents)
    }

    /// The stored collection as it is, without looking at its source: one row.
    func state(_ key: String) async throws -> DAVCollectionState? {
        try await database.read { [self] sql in
            guard
                let row = try await sql.raw(
                    "SELECT source_version, last_seq FROM dav_collections WHERE collection = \(bind: key)"
                ).first()
            else { return nil }
            return DAVCollectionState(
                key: key, sourceVersion: try row.decode(column: "source_version", as: String.self),
                lastSeq: try row.decode(column: "last_seq", as: Int64.self), store: self)
        }
    }

    /// Applies `contents`, read when the collection was at change number `startSeq` and source
    /// version `from`. Requests apply one at a time (the collection's row is locked; on SQLite the
    /// write transaction is), and several may have read at once: what moved after this one read
    /// (a member a client just wrote, one another request numbered) is theirs and left alone, and
    /// the version is recorded only if no one else recorded one meanwhile, so a later read looks
    /// again rather than trust contents older than someone else's.
    private func reconcile(
        _ source: some DAVCollectionSource, from: String?, startSeq: Int64, to version: String,
        contents: [String: String]
    ) async throws -> DAVCollectionState {
        let key = source.collectionKey
        let engine = database.engine
        return try await database.transaction { [self] sql in
            let lock = engine == .postgres ? " FOR UPDATE" : ""
            let (user, family) = source.owner.columns
            try await sql.raw(
                """
                INSERT INTO dav_collections (collection, user_id, family_id, source_version, last_seq)
                VALUES (\(bind: key), \(bind: user), \(bind: family), '', 0) ON CONFLICT DO NOTHING
                """
            ).run()
            guard
                let row = try await sql.raw(
                    "SELECT source_version, last_seq FROM dav_collections WHERE collection = \(bind: key)\(unsafeRaw: lock)"
                ).first()
            else { throw DAVError(.internalServerError, "The collection \(key) is missing.") }
            let stillFrom = try row.decode(column: "source_version", as: String.self) == (from ?? "")
            var seq = try row.decode(column: "last_seq", as: Int64.self)
            let items = try await Self.items(key, sql)
            var seen = Set<String>()
            // Objects whose members moved after this request read: theirs, not this one's.
            let movedSince = Set(items.filter { $0.seq > startSeq }.map(\.objectID))
            for item in items where !item.isDeleted {
                seen.insert(item.objectID)
                guard item.seq <= startSeq else { continue }
                if let text = contents[item.objectID] {
                    // A client's own body stands while Kith's text is the one made of it (its first
                    // look after the write records that text).
                    var basis = item.basis
                    if !item.body.isEmpty && basis.isEmpty { basis = Self.digest(text) }
                    let keepsBody = !item.body.isEmpty && basis == Self.digest(text)
                    let etag = keepsBody ? Self.digest(item.body) : Self.etag(text, uid: item.uid, extras: item.extras)
                    guard etag != item.etag || basis != item.basis else { continue }
                    if etag != item.etag { seq += 1 }
                    try await sql.raw(
                        """
                        UPDATE dav_items SET etag = \(bind: etag), seq = \(bind: etag != item.etag ? seq : item.seq),
                        body = \(bind: keepsBody ? item.body : ""), basis = \(bind: keepsBody ? basis : "")
                        WHERE collection = \(bind: key) AND name = \(bind: item.name)
                        """
                    ).run()
                } else {
                    seq += 1
                    try await sql.raw(
                        """
                        UPDATE dav_items SET deleted = 1, seq = \(bind: seq), extras = '', body = '', basis = ''
                        WHERE collection = \(bind: key) AND name = \(bind: item.name)
                        """
                    ).run()
                }
            }
            let tombstones = Set(items.filter(\.isDeleted).map(\.name))
            for (objectID, text) in contents.sorted(by: { $0.key < $1.key })
            where !seen.contains(objectID) && !movedSince.contains(objectID) {
                seq += 1
                let name = objectID + source.memberSuffix
                let etag = Self.etag(text, uid: objectID, extras: "")
                if tombstones.contains(name) {
                    try await sql.raw(
                        """
                        UPDATE dav_items SET object_id = \(bind: objectID), uid = \(bind: objectID), etag = \(bind: etag),
                        seq = \(bind: seq), deleted = 0, extras = '', body = '', basis = ''
                        WHERE collection = \(bind: key) AND name = \(bind: name)
                        """
                    ).run()
                } else {
                    try await sql.raw(
                        """
                        INSERT INTO dav_items (collection, name, object_id, uid, etag, seq, deleted, extras)
                        VALUES (\(bind: key), \(bind: name), \(bind: objectID), \(bind: objectID), \(bind: etag),
                        \(bind: seq), 0, '')
                        """
                    ).run()
                }
            }
            try await sql.raw(
                """
                UPDATE dav_collections SET last_seq = \(bind: seq) WHERE collection = \(bind: key)
                """
            ).run()
            if stillFrom {
                try await sql.raw(
                    "UPDATE dav_collections SET source_version = \(bind: version) WHERE collection = \(bind: key)"
                ).run()
            }
            return DAVCollectionState(key: key, sourceVersion: stillFrom ? version : "", lastSeq: seq, store: self)
        }
    }

    /// Records that the member `name` now shows `objectID` under `uid`, with `extras`, as a client's
    /// write left it (a name that was a tombstone lives again); the member as placed.
    ///
    /// With `written` (the collection's own text of the object, read in the write's transaction,
    /// and the source's versions just before and after the write), its tag is set here; and when
    /// the collection was up to date just before the write, it is up to date after it, so the
    /// next read compares nothing. Otherwise the tag is worked out, with every other member's, on
    /// the next read.
    @discardableResult
    func place(
        _ source: some DAVCollectionSource, name: String, objectID: String, uid: String, extras: String, body: String,
        written: DAVWrittenText? = nil
    ) async throws -> DAVItem {
        let key = source.collectionKey
        let (user, family) = source.owner.columns
        let basis = written.map { body.isEmpty ? "" : Self.digest($0.text) } ?? ""
        let etag = written.map { body.isEmpty ? Self.etag($0.text, uid: uid, extras: extras) : Self.digest(body) } ?? ""
        return try await database.transaction { sql in
            try await sql.raw(
                """
                INSERT INTO dav_collections (collection, user_id, family_id, source_version, last_seq)
                VALUES (\(bind: key), \(bind: user), \(bind: family), '', 0) ON CONFLICT DO NOTHING
                """
            ).run()
            // Up to date after the write only if it was just before it, and nothing else moved since.
            let before = written.map { Self.renderingVersion + ":" + $0.versionBefore } ?? "-"
            let after = written.map { Self.renderingVersion + ":" + $0.versionAfter } ?? ""
            guard
                let counted = try await sql.raw(
                    """
                    UPDATE dav_collections SET last_seq = last_seq + 1, source_version = CASE
                    WHEN source_version = \(bind: before) THEN \(bind: after) ELSE 'placed:' || last_seq END
                    WHERE collection = \(bind: key) RETURNING last_seq
                    """
                ).first()
            else { throw DAVError(.internalServerError, "The collection \(key) is missing.") }
            let seq = try counted.decode(column: "last_seq", as: Int64.self)
            // A read between the client's write and this one may have listed the new object under
            // a name of its own: that name goes, so one object is one member. Otherwise the source
            // version becomes one no source gives, and no other placement either: the next read
            // compares every member again (an empty tag differs from any), and a read that started
            // before this one, from contents that may lack the new object, leaves this member alone.
            try await sql.raw(
                """
                UPDATE dav_items SET deleted = 1, seq = \(bind: seq), extras = '', body = '', basis = ''
                WHERE collection = \(bind: key) AND object_id = \(bind: objectID) AND name <> \(bind: name)
                AND deleted = 0
                """
            ).run()
            try await sql.raw(
                """
                INSERT INTO dav_items (collection, name, object_id, uid, etag, seq, deleted, extras, body, basis)
                VALUES (\(bind: key), \(bind: name), \(bind: objectID), \(bind: uid), \(bind: etag), \(bind: seq), 0,
                \(bind: extras), \(bind: body), \(bind: basis))
                ON CONFLICT (collection, name) DO UPDATE SET object_id = \(bind: objectID), uid = \(bind: uid),
                etag = \(bind: etag), seq = \(bind: seq), deleted = 0, extras = \(bind: extras), body = \(bind: body),
                basis = \(bind: basis)
                """
            ).run()
            return DAVItem(
                name: name, objectID: objectID, uid: uid, etag: etag, seq: seq, isDeleted: false, extras: extras,
                body: body, basis: basis)
        }
    }

    // MARK: Reading members (of a collection brought up to date)

    /// The live members, by name.
    func members(_ key: String) async throws -> [DAVItem] {
        try await database.read { sql in try await Self.items(key, sql, where: " AND deleted = 0") }
    }

    /// The live members with these names.
    func members(_ key: String, named names: [String]) async throws -> [DAVItem] {
        guard !names.isEmpty else { return [] }
        return try await database.read { sql in
            try await Self.items(key, sql, where: " AND deleted = 0 AND name \(in: Array(Set(names)))")
        }
    }

    /// The live member with this UID.
    func member(_ key: String, uid: String) async throws -> DAVItem? {
        try await database.read { sql in
            try await Self.items(key, sql, where: " AND deleted = 0 AND uid = \(bind: uid)").first
        }
    }

    /// What changed after change number `since`, oldest change first: tombstones too, unless
    /// `since` is 0 (a first sync has nothing to forget).
    func changes(_ key: String, since: Int64) async throws -> [DAVItem] {
        try await database.read { sql in
            let deleted: SQLQueryString = since > 0 ? "" : " AND deleted = 0"
            return try await Self.items(key, sql, where: " AND seq > \(bind: since)" + deleted)
                .sorted { ($0.seq, $0.name) < ($1.seq, $1.name) }
        }
    }

    private static func items(_ key: String, _ sql: any SQLDatabase, where filter: SQLQueryString = "") async throws
        -> [DAVItem]
    {
        let query: SQLQueryString =
            "SELECT name, object_id, uid, etag, seq, deleted, extras, body, basis FROM dav_items WHERE collection = \(bind: key)"
            + filter + " ORDER BY name"
        return try await sql.raw(query).all().map { row in
            DAVItem(
                name: try row.decode(column: "name", as: String.self),
                objectID: try row.decode(column: "object_id", as: String.self),
                uid: try row.decode(column: "uid", as: String.self),
                etag: try row.decode(column: "etag", as: String.self),
                seq: try row.decode(column: "seq", as: Int64.self),
                isDeleted: try row.decode(column: "deleted", as: Int64.self) != 0,
                extras: try row.decode(column: "extras", as: String.self),
                body: try row.decode(column: "body", as: String.self),
                basis: try row.decode(column: "basis", as: String.self))
        }
    }

    /// A strong tag: a digest of everything the member's body is made of.
    static func etag(_ text: String, uid: String, extras: String) -> String {
        digest(text + "\u{0}" + uid + "\u{0}" + extras)
    }

    static func digest(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).prefix(12).map { String(format: "%02x", $0) }.joined()
    }
}

/// A collection as served at one change number; its members are read from the store as needed,
/// so a request that needs one member (a GET, a PUT) reads one row, not the collection.
struct DAVCollectionState: Sendable {
    let key: String
    let sourceVersion: String
    let lastSeq: Int64
    let store: DAVItemStore

    func members() async throws -> [DAVItem] { try await store.members(key) }

    func members(named names: [String]) async throws -> [DAVItem] { try await store.members(key, named: names) }

    func member(named name: String) async throws -> DAVItem? { try await store.members(key, named: [name]).first }

    func member(uid: String) async throws -> DAVItem? { try await store.member(key, uid: uid) }

    func changes(since: Int64) async throws -> [DAVItem] { try await store.changes(key, since: since) }
}

/// What a client's write made of the object, in the collection's own form, and the source's
/// versions just before and after the write (read in its transaction).
struct DAVWrittenText: Sendable {
    let text: String
    let versionBefore: String
    let versionAfter: String
}

extension DAVCollectionOwner {
    var columns: (user: String?, family: String?) {
        switch self {
        case .user(let id): (id, nil)
        case .family(let id): (nil, id)
        }
    }
}
