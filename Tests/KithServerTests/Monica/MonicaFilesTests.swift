import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// Documents, photos and avatars: files sent as `multipart/form-data`, kept with the account,
/// served back with the type their bytes have, and never to anyone else.
@Suite("Monica API: documents, photos and avatars")
struct MonicaFilesTests {
    /// A 1x1 PNG, written by hand.
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
        0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00,
        0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D,
        0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
    static let pdf = Array("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)
    static let html = Array("<html><script>alert(document.cookie)</script></html>".utf8)

    /// A multipart write: text fields, then files (field, filename, bytes).
    static func send(
        _ user: MonicaUser, _ path: String, method: HTTPRequest.Method = .post, fields: [(String, String)] = [],
        files: [(String, String, [UInt8])] = [], headers extra: HTTPFields = [:]
    ) async throws -> MonicaAnswer {
        let form = MultipartFormData(
            parts: fields.map { MultipartFormData.Part(name: $0.0, value: $0.1) }
                + files.map { MultipartFormData.Part(name: $0.0, filename: $0.1, body: $0.2) })
        let boundary = MultipartFormData.makeBoundary()
        var headers = extra
        headers[.contentType] = MultipartFormData.contentType(boundary: boundary)
        return try await user.raw(method, path, body: form.encoded(boundary: boundary), headers: headers)
    }

    /// A GET that answers bytes.
    static func download(_ user: MonicaUser, _ link: JSONTree?) async throws
        -> (status: HTTPResponse.Status, bytes: [UInt8], headers: HTTPFields)
    {
        let path = try #require(link?.stringValue.flatMap { URL(string: $0)?.path })
        let response = try await user.client.execute(
            uri: path, method: .get, headers: [.authorization: "Bearer \(user.token)"], body: nil)
        return (response.status, Array(buffer: response.body), response.headers)
    }

    @Test(arguments: Engine.available)
    func aDocumentIsKeptListedDownloadedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let john = try await me.contact("John")
            let created = try await Self.send(
                me, "/api/documents", fields: [("contact_id", "\(john)")],
                files: [("document", "Tax return 2017.pdf", Self.pdf)])
            #expect(created.status == .created, "\(created.text)")
            expectStructure(
                created.json,
                [
                    "data.id", "data.uuid", "data.object", "data.original_filename", "data.new_filename",
                    "data.filesize", "data.type", "data.mime_type", "data.number_of_downloads", "data.link", "data.url",
                    "data.account.id", "data.contact.id", "data.created_at", "data.updated_at",
                ])
            expectFragment(
                created,
                [
                    ("object", "document"), ("original_filename", "Tax return 2017.pdf"),
                    ("filesize", .int(Int64(Self.pdf.count))), ("type", "pdf"), ("mime_type", "application/pdf"),
                    ("number_of_downloads", 0),
                ])
            let document = try #require(created.dataID)
            #expect(ids(try await me.get("/api/documents")) == [document])
            #expect(ids(try await me.get("/api/contacts/\(john)/documents")) == [document])

            let file = try await Self.download(me, created.data?["link"])
            #expect(file.status == .ok)
            #expect(file.bytes == Self.pdf)
            #expect(file.headers[.contentType] == "application/pdf")
            #expect(
                file.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"Tax return 2017.pdf\"") == true)
            #expect(file.headers[.contentTypeOptions] == "nosniff")
            #expect(try await me.get("/api/documents/\(document)").data?["number_of_downloads"] == 1)

            // Another account sees none of it.
            expectNotFound(try await other.get("/api/documents/\(document)"))
            #expect(try await Self.download(other, created.data?["link"]).status == .notFound)
            expectNotFound(try await other.delete("/api/documents/\(document)"))
            #expect(try await other.get("/api/documents").json["meta"]?["total"] == 0)
            expectNotFound(
                try await Self.send(
                    other, "/api/documents", fields: [("contact_id", "\(john)")],
                    files: [("document", "x.pdf", Self.pdf)]
                ))

            // A document is replaced by uploading it again, not changed.
            #expect(
                try await me.put("/api/documents/\(document)", ["contact_id": .int(john)]).status == .methodNotAllowed)
            #expect(try await me.delete("/api/documents/\(document)").json == ["deleted": true, "id": .int(document)])
            #expect(try await Self.download(me, created.data?["link"]).status == .notFound)
            expectNotFound(try await me.get("/api/documents/\(document)"))
        }
    }

    @Test(arguments: Engine.available)
    func whatAFileIsComesFromItsBytes(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            // A page named like a PDF is kept, as text: it is never served as a page.
            let page = try await Self.send(
                me, "/api/documents", fields: [("contact_id", "\(john)")],
                files: [("document", "invoice.pdf", Self.html)])
            expectFragment(page, [("mime_type", "text/plain"), ("type", "txt"), ("original_filename", "invoice.pdf")])
            let served = try await Self.download(me, page.data?["link"])
            #expect(served.headers[.contentType] == "text/plain")
            #expect(served.headers[.contentSecurityPolicy]?.hasPrefix("sandbox") == true)
            // A browser's folders are not part of the name.
            let windows = try await Self.send(
                me, "/api/documents", fields: [("contact_id", "\(john)")],
                files: [("document", #"C:\Users\john\scan.png"#, Self.png)])
            expectFragment(windows, [("original_filename", "scan.png"), ("mime_type", "image/png")])
        }
    }

    @Test(arguments: Engine.available)
    func badUploadsAreRefusedAndKeepNothing(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            expectDataError(
                try await Self.send(me, "/api/documents", fields: [("contact_id", "\(john)")]),
                ["The document field is required."])
            expectDataError(
                try await Self.send(me, "/api/documents", fields: [("contact_id", "\(john)"), ("document", "text")]),
                ["The document must be a file."])
            expectDataError(
                try await Self.send(me, "/api/documents", files: [("document", "a.pdf", Self.pdf)]),
                ["The contact id field is required."])
            let tooBig = [UInt8](repeating: 0x41, count: MonicaUploads.largestFile + 1)
            expectDataError(
                try await Self.send(
                    me, "/api/documents", fields: [("contact_id", "\(john)")], files: [("document", "big.txt", tooBig)]),
                ["The document must not be greater than 10240 kilobytes."])
            // A body larger than any upload is refused before it is read.
            let huge = try await me.raw(
                .post, "/api/documents", body: [UInt8](repeating: 0x41, count: MonicaUploads.largestUploadBody + 1),
                headers: [.contentType: "multipart/form-data; boundary=x"])
            #expect(huge.status == .contentTooLarge)
            let broken = try await me.raw(
                .post, "/api/documents", body: Array("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1".utf8),
                headers: [.contentType: "multipart/form-data; boundary=x"])
            #expect(broken.status == .unprocessableContent, "\(broken.text)")
            expectDataError(
                try await Self.send(
                    me, "/api/photos", fields: [("contact_id", "\(john)")], files: [("photo", "me.png", Self.html)]),
                ["The photo must be an image (JPEG, PNG, GIF, WebP, AVIF or BMP)."])
            #expect(try await me.get("/api/documents").json["meta"]?["total"] == 0)
            #expect(try await me.get("/api/photos").json["meta"]?["total"] == 0)
        }
    }

    @Test(arguments: Engine.available)
    func anAccountKeepsNoMoreThanItsShare(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, configure: { $0.monica.storagePerAccount = 1_000 }) { me, other, _ in
            let john = try await me.contact("John")
            let first = try await Self.send(
                me, "/api/documents", fields: [("contact_id", "\(john)")],
                files: [("document", "a.bin", [UInt8](repeating: 1, count: 950))])
            #expect(first.status == .created)
            let second = try await Self.send(
                me, "/api/photos", fields: [("contact_id", "\(john)")], files: [("photo", "b.png", Self.png)])
            #expect(second.status == .unprocessableContent)
            #expect(second.text.contains("delete some to make room"))
            #expect(try await me.get("/api/photos").json["meta"]?["total"] == 0)
            // The share is each account's own.
            let jane = try await other.contact("Jane")
            let theirs = try await Self.send(
                other, "/api/photos", fields: [("contact_id", "\(jane)")], files: [("photo", "b.png", Self.png)])
            #expect(theirs.status == .created)
        }
    }

    @Test(arguments: Engine.available)
    func photosAreKeptAndShown(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John")
            let created = try await Self.send(
                me, "/api/photos", fields: [("contact_id", "\(john)")], files: [("photo", "beach.png", Self.png)])
            #expect(created.status == .created, "\(created.text)")
            expectFragment(
                created, [("object", "photo"), ("mime_type", "image/png"), ("original_filename", "beach.png")])
            let photo = try #require(created.dataID)
            let shown = try await Self.download(me, created.data?["link"])
            #expect(shown.bytes == Self.png)
            #expect(shown.headers[.contentType] == "image/png")
            #expect(shown.headers[.contentDisposition]?.hasPrefix("inline") == true)
            // As a data URL, as Monica's `data` field takes it.
            let fromData = try await me.post(
                "/api/photos",
                [
                    "contact_id": .int(john),
                    "data": .string("data:image/png;base64," + Data(Self.png).base64EncodedString()),
                ])
            #expect(fromData.status == .created, "\(fromData.text)")
            #expect(try await Self.download(me, fromData.data?["link"]).bytes == Self.png)
            #expect(ids(try await me.get("/api/contacts/\(john)/photos")).count == 2)
            expectNotFound(try await other.get("/api/photos/\(photo)"))
            #expect(try await Self.download(other, created.data?["link"]).status == .notFound)
            // The contact's photos go with it.
            _ = try await me.delete("/api/contacts/\(john)")
            #expect(try await me.get("/api/photos").json["meta"]?["total"] == 0)
            #expect(try await Self.download(me, created.data?["link"]).status == .notFound)
        }
    }

    @Test(arguments: Engine.available)
    func aContactsAvatarIsItsPhotoItsGravatarOrItsInitials(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John", extra: [("email", "John.Doe@Example.com ")])
            let photo = try #require(
                try await Self.send(
                    me, "/api/photos", fields: [("contact_id", "\(john)")], files: [("photo", "p.png", Self.png)]
                ).dataID)
            let byPhoto = try await me.put(
                "/api/contacts/\(john)/avatar", ["source": "photo", "photo_id": .int(photo)])
            #expect(byPhoto.status == .ok, "\(byPhoto.text)")
            let avatar = byPhoto.data?["information"]?["avatar"]
            #expect(avatar?["source"] == "photo")
            #expect(try await Self.download(me, avatar?["url"]).bytes == Self.png)
            // Every answer nesting the contact shows it too.
            let note = try await me.post("/api/notes", ["contact_id": .int(john), "body": "hi"])
            #expect(note.data?["contact"]?["information"]?["avatar"]?["source"] == "photo")

            let gravatar = try await me.put("/api/contacts/\(john)/avatar", ["source": "gravatar"])
            // Gravatar's hash of "john.doe@example.com".
            #expect(
                gravatar.data?["information"]?["avatar"]?["url"]
                    == "https://www.gravatar.com/avatar/8eb1b522f60d11fa897de1dc6351b7e8?s=200&d=mp")
            let initials = try await me.put("/api/contacts/\(john)/avatar", ["source": "default"])
            #expect(initials.data?["information"]?["avatar"]?["source"] == "default")
            #expect(initials.data?["information"]?["avatar"]?["url"] == "")

            // A picture sent with the change becomes a photo of the contact and its avatar.
            let sent = try await Self.send(
                me, "/api/contacts/\(john)/avatar", method: .put, fields: [("source", "photo")],
                files: [("photo", "n.png", Self.png)])
            #expect(sent.data?["information"]?["avatar"]?["source"] == "photo", "\(sent.text)")
            #expect(ids(try await me.get("/api/contacts/\(john)/photos")).count == 2)

            let jane = try await me.contact("Jane")
            expectDataError(
                try await me.put("/api/contacts/\(jane)/avatar", ["source": "gravatar"]),
                ["The contact has no email address, so it has no Gravatar."])
            expectDataError(
                try await me.put("/api/contacts/\(jane)/avatar", ["source": "photo"]),
                ["The photo id field is required when source is photo."])
            expectDataError(
                try await me.put("/api/contacts/\(jane)/avatar", ["source": "adorable"]),
                ["Adorable avatars no longer exist: choose default, gravatar or photo."])
            expectDataError(
                try await me.put("/api/contacts/\(jane)/avatar", ["source": "selfie"]),
                ["The selected source is invalid."])
            // Another account's photo or contact is not there to use.
            let theirs = try await other.contact("Other")
            let theirPhoto = try #require(
                try await Self.send(
                    other, "/api/photos", fields: [("contact_id", "\(theirs)")], files: [("photo", "o.png", Self.png)]
                ).dataID)
            expectNotFound(
                try await me.put("/api/contacts/\(jane)/avatar", ["source": "photo", "photo_id": .int(theirPhoto)]))
            expectNotFound(try await other.put("/api/contacts/\(john)/avatar", ["source": "default"]))

            // Deleting the photo leaves the initials.
            _ = try await me.put("/api/contacts/\(john)/avatar", ["source": "photo", "photo_id": .int(photo)])
            _ = try await me.delete("/api/photos/\(photo)")
            #expect(try await me.get("/api/contacts/\(john)").data?["information"]?["avatar"]?["url"] == "")
        }
    }

    @Test(arguments: Engine.available)
    func aGiftShowsPhotosOfItsContact(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            func photo(of contact: Int64) async throws -> Int64 {
                try #require(
                    try await Self.send(
                        me, "/api/photos", fields: [("contact_id", "\(contact)")], files: [("photo", "g.png", Self.png)]
                    ).dataID)
            }
            let picture = try await photo(of: john)
            let gift = try #require(
                try await me.post("/api/gifts", ["contact_id": .int(john), "name": "Bike", "status": "idea"]).dataID)
            let shown = try await me.put("/api/gifts/\(gift)/photo/\(picture)")
            #expect(shown.status == .ok, "\(shown.text)")
            #expect(shown.data?["photos"]?[0]?["id"] == .int(picture))
            _ = try await me.put("/api/gifts/\(gift)/photo/\(picture)")
            #expect(try await me.get("/api/gifts/\(gift)").data?["photos"]?.arrayValue?.count == 1)
            #expect(try await me.get("/api/contacts/\(john)/gifts").data?[0]?["photos"]?[0]?["object"] == "photo")
            expectDataError(
                try await me.put("/api/gifts/\(gift)/photo/\(try await photo(of: jane))"),
                ["The photo must be one of the photos of the gift's contact."])
            expectNotFound(try await other.put("/api/gifts/\(gift)/photo/\(picture)"))
            expectNotFound(try await me.put("/api/gifts/\(gift)/photo/0"))
            _ = try await me.delete("/api/photos/\(picture)")
            #expect(try await me.get("/api/gifts/\(gift)").data?["photos"] == [])
        }
    }

    @Test(arguments: Engine.available)
    func anUploadSentTwiceWithOneKeyIsKeptOnce(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let john = try await me.contact("John")
            // Larger than the 1 MiB other bodies may be: the key's record holds the whole request.
            var bytes = Self.pdf
            bytes += [UInt8](repeating: 0x20, count: 2 * 1_048_576)
            // The same request twice: the same bytes, boundary and all.
            let form = MultipartFormData(parts: [
                MultipartFormData.Part(name: "contact_id", value: "\(john)"),
                MultipartFormData.Part(name: "document", filename: "big.pdf", body: bytes),
            ])
            let boundary = MultipartFormData.makeBoundary()
            let headers: HTTPFields = [
                .idempotencyKey: UUID().uuidString, .contentType: MultipartFormData.contentType(boundary: boundary),
            ]
            let first = try await me.raw(
                .post, "/api/documents", body: form.encoded(boundary: boundary), headers: headers)
            #expect(first.status == .created, "\(first.text)")
            let again = try await me.raw(
                .post, "/api/documents", body: form.encoded(boundary: boundary), headers: headers)
            #expect(again.headers[.idempotentReplayed] == "true")
            #expect(try await me.get("/api/documents").json["meta"]?["total"] == 1)
        }
    }
}

extension MonicaUser {
    /// A request with a body of raw bytes.
    func raw(_ method: HTTPRequest.Method, _ path: String, body: [UInt8], headers extra: HTTPFields = [:])
        async throws -> MonicaAnswer
    {
        var headers = extra
        headers[.authorization] = "Bearer \(token)"
        headers[.accept] = "application/json"
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: ByteBuffer(bytes: body))
        let text = String(buffer: response.body)
        return MonicaAnswer(
            status: response.status, json: JSONTree.parse(Data(text.utf8)) ?? .null, headers: response.headers,
            text: text)
    }
}
