import Foundation
import SQLKit

/// The bytes of an account's documents and photos, kept in the database beside their rows (one
/// `…_contents` table per kind), so every server sharing the database serves them, a backup holds
/// them, and they go in the same transaction as their row.
struct FileContents: Sendable {
    /// `monica_document_contents` keyed by `document_id`, or `monica_photo_contents` by `photo_id`.
    let table: String
    let key: String

    static let documents = FileContents(table: "monica_document_contents", key: "document_id")
    static let photos = FileContents(table: "monica_photo_contents", key: "photo_id")

    func store(_ bytes: Data, of id: Int64, _ storage: MonicaStorage) async throws {
        try await storage.sql.raw(
            """
            INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: key), account_id, content)
            VALUES (\(bind: id), \(bind: storage.account), \(bind: bytes))
            """
        ).run()
    }

    /// File `id`'s bytes, if it is the account's.
    func read(_ id: Int64, _ storage: MonicaStorage) async throws -> Data? {
        try await storage.sql.raw(
            """
            SELECT content FROM \(unsafeRaw: table)
            WHERE \(unsafeRaw: key) = \(bind: id) AND account_id = \(bind: storage.account)
            """
        ).first()?.decode(column: "content", as: Data.self)
    }

    /// How many bytes of files the account keeps, documents and photos together (PostgreSQL's
    /// `SUM` of integers is a `NUMERIC`, hence the cast).
    static func bytesKept(_ storage: MonicaStorage) async throws -> Int64 {
        try await storage.sql.raw(
            """
            SELECT CAST(
                (SELECT COALESCE(SUM(filesize), 0) FROM monica_documents WHERE account_id = \(bind: storage.account))
                + (SELECT COALESCE(SUM(filesize), 0) FROM monica_photos WHERE account_id = \(bind: storage.account))
            AS BIGINT) AS kept
            """
        ).first()?.decode(column: "kept", as: Int64.self) ?? 0
    }

    /// Refuses a file the account has no room left for (Monica's `max_storage_size`).
    static func checkRoom(for size: Int, limit: Int64, _ storage: MonicaStorage) async throws {
        let kept = try await bytesKept(storage)
        guard kept + Int64(size) <= limit else {
            let megabytes = limit / 1_048_576
            throw MonicaError.invalid(
                "This account's documents and photos already take \(kept / 1_048_576) of its \(megabytes) MB: delete some to make room for this file."
            )
        }
    }
}
