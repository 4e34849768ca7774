import Foundation

/// A row of `monica_photos`: a picture of a contact (its bytes are in `monica_photo_contents`).
struct PhotoRecord: MonicaRecord {
    static let table = "monica_photos"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let originalFilename: String
    /// Where Monica would have stored it (`photos/<uuid>.<extension>`).
    let newFilename: String
    let filesize: Int64
    let mimeType: String
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, filesize
        case contactID = "contact_id", originalFilename = "original_filename", newFilename = "new_filename"
        case mimeType = "mime_type", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension PhotoRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
