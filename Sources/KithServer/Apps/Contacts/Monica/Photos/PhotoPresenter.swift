import KithCore

enum PhotoPresenter {
    /// `dataUrl` is null: Monica writes the whole picture into every answer there (a page of 15
    /// photos could weigh 150 MB); `link` is the picture.
    static func present(_ record: PhotoRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "photo"),
                    ("original_filename", .string(record.originalFilename)),
                    ("new_filename", .string(record.newFilename)), ("filesize", .int(record.filesize)),
                    ("mime_type", .string(record.mimeType)), ("dataUrl", .null),
                    ("link", .string(presentation.url("photos/\(record.id)/file"))),
                ] + presentation.stamps(record, contact: contact)))
    }
}
