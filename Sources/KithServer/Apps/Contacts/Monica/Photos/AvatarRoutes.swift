import Foundation
import Hummingbird
import KithCore

/// `PUT /api/contacts/{id}/avatar`: `source` `default`, `gravatar` or `photo` (with `photo_id`,
/// or, Kith's, a `photo` file or `data` URL sent with it). Answers the contact in full.
struct AvatarRoutes {
    static let rules = [
        FieldRules("source", .required, .oneOf(["default", "adorable", "gravatar", "photo"])),
        FieldRules("photo_id", .nullable, .integer),
        FieldRules("photo", .file(maxKilobytes: MonicaUploads.largestFileKilobytes), .image),
    ]

    let contacts: ContactRepository
    let storageLimit: Int64

    func addRoutes(to routes: MonicaRoutes) {
        routes.put("contacts/{id}/avatar") { call in
            let id = try call.id()
            let input = try await call.input()
            try await contacts.requireExists(account: call.accountID, id: id)
            let valid = try MonicaValidator.validate(input, Self.rules)
            let choice: AvatarChoice
            switch valid.string("source") {
            case "gravatar": choice = .gravatar
            case "photo":
                if let photoID = valid.int("photo_id") {
                    choice = .photo(id: photoID)
                } else if valid.file("photo") != nil || valid.string("data") != nil {
                    choice = .newPhoto(try PhotosRoutes.picture(valid, field: "photo"))
                } else {
                    throw MonicaError.invalid("The photo id field is required when source is photo.")
                }
            // Adorable's avatar service closed in 2020; Monica's links to it show nothing.
            case "adorable":
                throw MonicaError.invalid("Adorable avatars no longer exist: choose default, gravatar or photo.")
            default: choice = .initials
            }
            let details = try await contacts.setAvatar(
                account: call.accountID, id: id, ifMatch: try call.ifMatch(), choice, storageLimit: storageLimit,
                now: call.now, withContactFields: call.withContactFields)
            return ContactsRoutes.answer(details, call)
        }
    }
}
