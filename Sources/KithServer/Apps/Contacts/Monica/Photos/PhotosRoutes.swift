import Foundation
import Hummingbird
import KithCore

/// `/api/photos` and `/api/contacts/{id}/photos` (no update), and Kith's
/// `GET /api/photos/{id}/file`, the picture itself. A photo comes as a file (`photo`) or as a
/// data URL (`data`), as Monica takes it.
struct PhotosRoutes {
    static let rules = [
        FieldRules("contact_id", .required, .integer),
        FieldRules("photo", .file(maxKilobytes: MonicaUploads.largestFileKilobytes), .image),
    ]

    let repository: PhotoRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned("photos", repository.owned, updatable: false, present: Self.present) { call, _ in
            let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
            let file = try Self.picture(valid, field: "photo")
            let saved = try await repository.upload(
                account: call.accountID, contactID: valid.int("contact_id") ?? 0, file, now: call.now)
            return owned(saved, call, Self.present, status: .created)
        }
        routes.get("photos/{id}/file") { call in
            let found = try await repository.file(account: call.accountID, id: try call.id())
            return FileResponse.make(
                found.bytes, type: found.photo.mimeType, filename: found.photo.originalFilename, inline: true)
        }
    }

    static let present: OwnedPresenter<PhotoRecord> = { photo, contact, presentation in
        PhotoPresenter.present(photo, contact: contact(photo.contactID), presentation)
    }

    /// The picture a write sends: the `field` file, else a `data:image/…;base64,…` URL in `data`;
    /// either must be an image by its bytes and no larger than a file may be.
    static func picture(_ valid: ValidInput, field: String) throws -> UploadedFile {
        if let file = valid.file(field) { return file }
        guard let text = valid.string("data") else {
            throw MonicaError.invalid("The \(field) field is required when data is not present.")
        }
        guard let bytes = MonicaUploads.dataURL(text) else {
            throw MonicaError.invalid("The data must be a data URL of an image (data:image/…;base64,…).")
        }
        let file = UploadedFile(filename: "photo.\(FileSniffer.sniff(bytes).fileExtension)", bytes: bytes)
        guard bytes.count <= MonicaUploads.largestFile else {
            throw MonicaError.invalid(
                "The data must not be greater than \(MonicaUploads.largestFileKilobytes) kilobytes.")
        }
        guard file.kind.isImage else {
            throw MonicaError.invalid("The data must be an image (JPEG, PNG, GIF, WebP, AVIF or BMP).")
        }
        return file
    }
}
