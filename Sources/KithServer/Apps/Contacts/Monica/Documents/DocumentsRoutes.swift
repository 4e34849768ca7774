import Foundation
import Hummingbird
import KithCore

/// `/api/documents` and `/api/contacts/{id}/documents` (no update: a document is replaced by
/// uploading it again), and Kith's `GET /api/documents/{id}/download`, the file itself.
struct DocumentsRoutes {
    static let rules = [
        FieldRules("contact_id", .required, .integer),
        FieldRules("document", .required, .file(maxKilobytes: MonicaUploads.largestFileKilobytes)),
    ]

    let repository: DocumentRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned("documents", repository.owned, updatable: false, present: Self.present) { call, _ in
            let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
            guard let file = valid.file("document") else {
                throw MonicaError.invalid("The document field is required.")
            }
            let saved = try await repository.upload(
                account: call.accountID, contactID: valid.int("contact_id") ?? 0, file, now: call.now)
            return owned(saved, call, Self.present, status: .created)
        }
        routes.get("documents/{id}/download") { call in
            let found = try await repository.download(account: call.accountID, id: try call.id())
            return FileResponse.make(
                found.bytes, type: found.document.mimeType, filename: found.document.originalFilename, inline: false)
        }
    }

    static let present: OwnedPresenter<DocumentRecord> = { document, contact, presentation in
        DocumentPresenter.present(document, contact: contact(document.contactID), presentation)
    }
}
