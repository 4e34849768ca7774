import Crypto
import Foundation
import SQLKit

/// What a contact's avatar is asked to show.
enum AvatarChoice: Sendable {
    case initials
    case gravatar
    /// One of the account's photos (it becomes the contact's too, as Monica attaches it).
    case photo(id: Int64)
    /// A picture sent with the change: kept as a photo of the contact, then shown.
    case newPhoto(UploadedFile)
}

extension ContactRepository {
    /// Sets what contact `id`'s avatar shows, if it is still a version `ifMatch` names; the
    /// contact in full. Gravatar needs one of the contact's email addresses; another account's
    /// photo is 404.
    func setAvatar(
        account: Int64, id: Int64, ifMatch: IfMatch?, _ choice: AvatarChoice, storageLimit: Int64, now: Int64,
        withContactFields: Bool
    ) async throws -> ContactDetails {
        try await writing(account) { [ids] storage in
            try await storage.check(ifMatch, ContactRecord.self, id: id)
            let contact = try await storage.contacts.require(id)
            var values: MonicaColumns = [
                "avatar_source": .text("default"), "avatar_photo_id": .null, "avatar_gravatar_url": .null,
            ]
            switch choice {
            case .initials: break
            case .gravatar:
                guard let email = try await Self.firstEmail(of: contact.id, storage) else {
                    throw MonicaError.invalid("The contact has no email address, so it has no Gravatar.")
                }
                values["avatar_source"] = .text("gravatar")
                values["avatar_gravatar_url"] = .text(Self.gravatarURL(email))
            case .photo(let photoID):
                let photo = try await storage.table(PhotoRecord.self).require(photoID)
                values["avatar_source"] = .text("photo")
                values["avatar_photo_id"] = .int(photo.id)
            case .newPhoto(let file):
                let photo = try await PhotoRepository.keep(
                    file, of: contact.id, storageLimit: storageLimit, uuid: ids.text(), storage, now: now)
                values["avatar_source"] = .text("photo")
                values["avatar_photo_id"] = .int(photo.id)
            }
            let updated = try await storage.contacts.update(id, values, now: now)
            try await storage.contactsChanged()
            return try await storage.details.details(of: updated, withContactFields: withContactFields)
        }
    }

    /// The contact's first email address (the field of the Email kind added first).
    private static func firstEmail(of contactID: Int64, _ storage: MonicaStorage) async throws -> String? {
        try await storage.sql.raw(
            """
            SELECT f.data FROM monica_contact_fields f JOIN monica_contact_field_types t ON t.id = f.contact_field_type_id
            WHERE f.contact_id = \(bind: contactID) AND f.account_id = \(bind: storage.account) AND t.type = 'email'
            ORDER BY f.id LIMIT 1
            """
        ).first()?.decode(column: "data", as: String.self)
    }

    /// Gravatar's address for an email: the MD5 of the trimmed, lower-cased address (Gravatar's
    /// own scheme); `d=mp` shows a silhouette for an address Gravatar does not know.
    static func gravatarURL(_ email: String) -> String {
        let normalized = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let hash = Insecure.MD5.hash(data: Data(normalized.utf8)).map { String(format: "%02x", $0) }.joined()
        return "https://www.gravatar.com/avatar/\(hash)?s=200&d=mp"
    }
}
