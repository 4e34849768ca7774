import Foundation
import HTTPTypes
import Hummingbird

/// A DAV request Kith refuses: a status, a sentence a person can read (the phone may show it),
/// and, where WebDAV, CardDAV or CalDAV name one, the precondition that failed (RFC 4918 §16),
/// which clients read to know what to do (`valid-sync-token`: sync from scratch).
struct DAVError: Error, Sendable {
    let status: HTTPResponse.Status
    let message: String
    let precondition: XMLName?
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, precondition: XMLName? = nil) {
        self.status = status
        self.message = message
        self.precondition = precondition
    }

    /// The answer: `<d:error>` with the precondition and the sentence as XML when there is a
    /// precondition, else the sentence as plain text.
    var response: Response {
        var headers = self.headers
        let body: String
        if let precondition {
            headers[.contentType] = "application/xml; charset=utf-8"
            body = XMLWriter.document(
                .dav("error", [XMLNode(precondition), XMLNode(XMLName(DAVNamespace.kith, "message"), text: message)]))
        } else {
            headers[.contentType] = "text/plain; charset=utf-8"
            body = message + "\n"
        }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    static let notFound = DAVError(.notFound, "There is nothing at this address.")

    static func badXML(_ message: String) -> DAVError {
        DAVError(.badRequest, "The request's XML could not be read: \(message)")
    }

    /// RFC 7232: an `If-Match` or `If-None-Match` the member does not meet.
    static let stale = DAVError(
        .preconditionFailed,
        "Someone changed this after your device last synced (on the web or another device), so your change was not saved. Sync again to see their change."
    )

    static func forbidden(_ message: String, precondition: XMLName? = nil) -> DAVError {
        DAVError(.forbidden, message, precondition: precondition)
    }
}

extension DAVNamespace {
    /// Kith's own elements in an answer (the sentence inside a `<d:error>`).
    static let kith = "https://kith.invalid/ns/dav"
}
