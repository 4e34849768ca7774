import Foundation
import SQLKit

struct DocumentRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource
    /// How many bytes of documents and photos an account may keep.
    let storageLimit: Int64

    var owned: ContactOwnedRepository<DocumentRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Keeps `file` as a document of contact `contactID` (another account's is 404), if the
    /// account has room for it.
    func upload(account: Int64, contactID: Int64, _ file: UploadedFile, now: Int64) async throws
        -> WithContacts<DocumentRecord>
    {
        try await writing(account) { [ids, storageLimit] storage in
            _ = try await storage.contacts.require(contactID)
            try await FileContents.checkRoom(for: file.bytes.count, limit: storageLimit, storage)
            var values = StoredFileColumns.columns(of: file, folder: "documents", uuid: ids.text())
            values["contact_id"] = .int(contactID)
            values["type"] = .text(file.kind.fileExtension)
            let document = try await storage.table(DocumentRecord.self).insert(values, now: now)
            try await FileContents.documents.store(file.bytes, of: document.id, storage)
            return try await storage.table(DocumentRecord.self).namingContacts(document)
        }
    }

    /// Document `id` and its bytes, counted as one more download.
    func download(account: Int64, id: Int64) async throws -> (document: DocumentRecord, bytes: Data) {
        try await writing(account) { storage in
            let document = try await storage.table(DocumentRecord.self).require(id)
            guard let bytes = try await FileContents.documents.read(id, storage) else { throw MonicaError.notFound }
            try await storage.sql.raw(
                """
                UPDATE monica_documents SET number_of_downloads = number_of_downloads + 1
                WHERE id = \(bind: id) AND account_id = \(bind: storage.account)
                """
            ).run()
            return (document, bytes)
        }
    }
}
