import Foundation
import SQLKit

struct PhotoRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource
    /// How many bytes of documents and photos an account may keep.
    let storageLimit: Int64

    var owned: ContactOwnedRepository<PhotoRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Keeps `file` (a picture) as a photo of contact `contactID` (another account's is 404), if
    /// the account has room for it.
    func upload(account: Int64, contactID: Int64, _ file: UploadedFile, now: Int64) async throws
        -> WithContacts<PhotoRecord>
    {
        try await writing(account) { [ids, storageLimit] storage in
            _ = try await storage.contacts.require(contactID)
            let photo = try await Self.keep(
                file, of: contactID, storageLimit: storageLimit, uuid: ids.text(), storage, now: now)
            return try await storage.table(PhotoRecord.self).namingContacts(photo)
        }
    }

    /// Photo `id` and its bytes.
    func file(account: Int64, id: Int64) async throws -> (photo: PhotoRecord, bytes: Data) {
        try await reading(account) { storage in
            let photo = try await storage.table(PhotoRecord.self).require(id)
            guard let bytes = try await FileContents.photos.read(id, storage) else { throw MonicaError.notFound }
            return (photo, bytes)
        }
    }

    /// A new photo of contact `contactID`, in the caller's transaction.
    static func keep(
        _ file: UploadedFile, of contactID: Int64, storageLimit: Int64, uuid: String, _ storage: MonicaStorage,
        now: Int64
    ) async throws -> PhotoRecord {
        try await FileContents.checkRoom(for: file.bytes.count, limit: storageLimit, storage)
        var values = StoredFileColumns.columns(of: file, folder: "photos", uuid: uuid)
        values["contact_id"] = .int(contactID)
        let photo = try await storage.table(PhotoRecord.self).insert(values, now: now)
        try await FileContents.photos.store(file.bytes, of: photo.id, storage)
        return photo
    }
}
