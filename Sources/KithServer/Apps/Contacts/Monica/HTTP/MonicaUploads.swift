import Foundation
import Hummingbird
import KithCore

/// A file sent with a write (a `multipart/form-data` part with a filename, or a photo's data
/// URL): its name as the sender gave it, its bytes, and what the bytes are.
struct UploadedFile: Sendable {
    let filename: String
    let bytes: Data
    /// Read from the bytes, never from the name or the type the sender claimed.
    let kind: SniffedFile

    init(filename: String, bytes: Data) {
        self.filename = filename
        self.bytes = bytes
        self.kind = FileSniffer.sniff(bytes)
    }
}

/// Where `/api` takes files, and how large.
enum MonicaUploads {
    /// Monica's `max_upload_size`: 10,240 KB a file.
    static let largestFileKilobytes = 10_240
    static let largestFile = largestFileKilobytes * 1024
    /// A body carrying one file: the file, its multipart framing and the other fields.
    static let largestUploadBody = largestFile + 64 * 1024

    /// How large a body the request may send: a file's worth where `/api` takes files, else the
    /// 1 MiB every other body may be.
    static func bodyLimit(for request: Request) -> Int {
        takesFiles(request) ? largestUploadBody : SyncLimits.largestBody
    }

    /// `POST /api/documents`, `POST /api/photos` and `PUT|PATCH /api/contacts/{id}/avatar`.
    static func takesFiles(_ request: Request) -> Bool {
        var path = Substring(request.uri.path)
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        switch request.method {
        case .post: return path == "/api/documents" || path == "/api/photos"
        case .put, .patch:
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 5 && parts[1] == "api" && parts[2] == "contacts" && parts[4] == "avatar"
                && !parts[3].isEmpty && parts[3].allSatisfy { $0.isASCII && $0.isNumber }
        default: return false
        }
    }

    /// A photo sent as a data URL (`data:image/png;base64,…`), as Monica's `data` field takes it.
    static func dataURL(_ text: String) -> Data? {
        guard text.hasPrefix("data:"), let comma = text.firstIndex(of: ",") else { return nil }
        let header = text[text.index(text.startIndex, offsetBy: 5)..<comma]
        guard header.hasSuffix(";base64") else { return nil }
        return Data(base64Encoded: String(text[text.index(after: comma)...]), options: .ignoreUnknownCharacters)
    }
}
