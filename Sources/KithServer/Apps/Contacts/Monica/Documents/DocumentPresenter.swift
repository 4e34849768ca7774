import KithCore

enum DocumentPresenter {
    static func present(_ record: DocumentRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "document"),
                    ("original_filename", .string(record.originalFilename)),
                    ("new_filename", .string(record.newFilename)), ("filesize", .int(record.filesize)),
                    ("type", .string(record.type)), ("mime_type", .string(record.mimeType)),
                    ("number_of_downloads", .int(record.numberOfDownloads)),
                    ("link", .string(presentation.url("documents/\(record.id)/download"))),
                    ("url", .string(presentation.url("documents/\(record.id)"))),
                ] + presentation.stamps(record, contact: contact)))
    }
}
