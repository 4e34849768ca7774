import Foundation
import Hummingbird
import KithCore
import NIOCore

/// A kept file as an answer. Its type is the one read from its bytes when it was kept; the
/// browser is told not to guess another (`nosniff`) and to run nothing in it (`sandbox`), so a
/// file that is really a page cannot act on the site; only what it may show inline (a photo) is
/// not an attachment.
enum FileResponse {
    static func make(_ bytes: Data, type: String, filename: String, inline: Bool) -> Response {
        var headers: HTTPFields = [
            .contentType: type, .contentDisposition: disposition(filename, inline: inline),
            .cacheControl: "private, max-age=3600",
        ]
        headers[.contentTypeOptions] = "nosniff"
        headers[.contentSecurityPolicy] = "sandbox; default-src 'none'; img-src 'self'"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): an ASCII name for old clients,
    /// the real one for the rest.
    static func disposition(_ filename: String, inline: Bool) -> String {
        let ascii = String(
            filename.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" ? Character(scalar) : "_"
            })
        let encoded = filename.addingPercentEncoding(withAllowedCharacters: .rfc5987) ?? ascii
        return "\(inline ? "inline" : "attachment"); filename=\"\(ascii)\"; filename*=UTF-8''\(encoded)"
    }
}

extension CharacterSet {
    /// RFC 5987's `attr-char`.
    fileprivate static let rfc5987 = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$&+-.^_`|~")
}
