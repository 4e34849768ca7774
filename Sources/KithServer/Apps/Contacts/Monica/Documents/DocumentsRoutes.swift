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
        let documents = repository.owned
        routes.get("documents") { call in
            let page = try call.page()
            return ownedPage(
                try await documents.page(account: call.accountID, ofContact: nil, page), page, call, Self.present)
        }
        routes.get("contacts/{id}/documents") { call in
            let page = try call.page()
            let found = try await documents.page(account: call.accountID, ofContact: try call.id(), page)
            return ownedPage(found, page, call, Self.present)
        }
        routes.get("documents/{id}") { call in
            owned(try await documents.find(account: call.accountID, id: try call.id()), call, Self.present)
        }
        routes.post("documents") { call in
            let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
            guard let file = valid.file("document") else {
                throw MonicaError.invalid("The document field is required.")
            }
            let saved = try await repository.upload(
                account: call.accountID, contactID: valid.int("contact_id") ?? 0, file, now: call.now)
            return owned(saved, call, Self.present, status: .created)
        }
        routes.destroy("documents", attribute: nil, answerText: false) {
            try await documents.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
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
