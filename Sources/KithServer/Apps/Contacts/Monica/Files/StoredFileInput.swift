import Foundation

/// The columns a newly kept file's row starts with, from what was uploaded: the name as sent
/// (without any folder a browser put before it), the size and the type read from the bytes, and
/// the place Monica would have stored it.
enum StoredFileColumns {
    static func columns(of file: UploadedFile, folder: String, uuid: String) -> MonicaColumns {
        [
            "uuid": .text(uuid), "original_filename": .text(displayName(file.filename)),
            "new_filename": .text("\(folder)/\(uuid).\(file.kind.fileExtension)"),
            "filesize": .int(Int64(file.bytes.count)), "mime_type": .text(file.kind.mimeType),
        ]
    }

    /// The last path component of a sent name (old browsers send `C:\…\photo.jpg`), at most 255
    /// characters, never empty.
    static func displayName(_ sent: String) -> String {
        let last = sent.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        let clean = String(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(255))
        return clean.isEmpty ? "file" : clean
    }
}
