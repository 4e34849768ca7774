import Foundation

/// A row of `monica_documents`: a file kept for a contact (its bytes are in `monica_document_contents`).
struct DocumentRecord: MonicaRecord {
    static let table = "monica_documents"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let originalFilename: String
    /// Where Monica would have stored it (`documents/<uuid>.<extension>`); Kith keeps the bytes in
    /// the database and shows this as Monica does.
    let newFilename: String
    let filesize: Int64
    /// The file's extension, from its bytes.
    let type: String
    let mimeType: String
    let numberOfDownloads: Int64
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, filesize, type
        case contactID = "contact_id", originalFilename = "original_filename", newFilename = "new_filename"
        case mimeType = "mime_type", numberOfDownloads = "number_of_downloads"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension DocumentRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
