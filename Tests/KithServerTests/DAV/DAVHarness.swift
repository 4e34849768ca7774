import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import NIOCore
import Testing

@testable import KithServer

/// A person's phone as a DAV client: their email and an app password (a personal access token),
/// sent as HTTP Basic on every request.
struct DAVPhone {
    let email: String
    let userID: String
    /// The session's bearer token, for `/api` and `/v1` checks beside DAV.
    let bearer: String
    let appPassword: String
    let client: any TestClientProtocol

    var addressBook: String { "/dav/addressbooks/\(userID)/contacts/" }
    var calendar: String { "/dav/calendars/\(userID)/family/" }

    /// Signs `email` up (or in, with `session`) and makes an app password for their phone.
    static func make(_ email: String, _ client: any TestClientProtocol, session: AuthSessionResponse? = nil)
        async throws
        -> DAVPhone
    {
        let session = try await session.asyncOr { try await client.signUp(email) }
        let made = try await client.call(
            .post, "/v1/tokens", body: CreateTokenRequest(name: "phone"), token: session.accessToken)
        #expect(made.status == .created, "\(made.text)")
        let token = try #require(try made.decode(PersonalTokenDTO.self).token)
        return DAVPhone(
            email: email, userID: session.user.id.lowercased, bearer: session.accessToken, appPassword: token,
            client: client)
    }

    /// A DAV request with Basic credentials (`password` nil: the app password).
    @discardableResult
    func send(
        _ method: String, _ path: String, body: String? = nil, headers extra: HTTPFields = [:], password: String? = nil
    ) async throws -> TestResponse {
        var headers = extra
        let credentials = Data("\(email):\(password ?? appPassword)".utf8).base64EncodedString()
        headers[.authorization] = "Basic \(credentials)"
        return try await client.execute(
            uri: path, method: HTTPRequest.Method(method)!, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    func propfind(_ path: String, depth: String, _ properties: String) async throws -> DAVAnswer {
        let body = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:propfind xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:cal="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"><d:prop>\(properties)</d:prop></d:propfind>
            """
        return try DAVAnswer(try await send("PROPFIND", path, body: body, headers: [.depth: depth]))
    }

    func report(_ path: String, _ body: String) async throws -> DAVAnswer {
        try DAVAnswer(try await send("REPORT", path, body: body, headers: [.depth: "1"]))
    }

    /// RFC 6578: what changed since `token` ("" for everything), with each member's tag.
    func syncCollection(_ path: String, token: String, data: String? = nil) async throws -> DAVAnswer {
        let dataProperty = data.map { "<\($0)/>" } ?? ""
        return try await report(
            path,
            """
            <d:sync-collection xmlns:d="DAV:" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:cal="urn:ietf:params:xml:ns:caldav">
            <d:sync-token>\(token)</d:sync-token><d:sync-level>1</d:sync-level>
            <d:prop><d:getetag/>\(dataProperty)</d:prop></d:sync-collection>
            """)
    }

    func put(_ path: String, _ body: String, ifMatch: String? = nil, ifNoneMatch: String? = nil) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let ifMatch { headers[.ifMatch] = ifMatch }
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        return try await send("PUT", path, body: body, headers: headers)
    }

    /// The member at `path` and its `ETag` (quoted).
    func get(_ path: String) async throws -> (body: String, etag: String?) {
        let answer = try await send("GET", path)
        #expect(answer.status == .ok, "GET \(path): \(answer.status) \(answer.text)")
        return (answer.text, answer.headers[.eTag])
    }

    /// `/api` as the same person.
    func api(_ method: HTTPRequest.Method, _ path: String, _ json: String? = nil) async throws -> JSONTree {
        let answer = try await client.call(method, path, json: json, token: bearer)
        #expect(answer.status.code < 300, "\(method) \(path): \(answer.status) \(answer.text)")
        return JSONTree.parse(Data(answer.text.utf8)) ?? .null
    }
}

/// A 207 answer, read with the server's own XML reader: each response's href, status and
/// properties.
struct DAVAnswer {
    struct Member {
        let href: String
        /// The response's own status ("404 Not Found" for a member gone), nil when it has propstats.
        let status: String?
        /// Properties found (200), by local name, as their text.
        var found: [String: String] = [:]
        var foundElements: [String: DAVXMLElement] = [:]
        var missing: Set<String> = []
    }

    let status: HTTPResponse.Status
    let members: [Member]
    let syncToken: String?

    init(_ response: TestResponse) throws {
        status = response.status
        #expect(response.status.code == 207, "\(response.status): \(response.text)")
        let root = try XMLReader.parse(Array(response.text.utf8))
        var members: [Member] = []
        for element in root.children(DAVName.dav("response")) {
            var member = Member(
                href: element.child(DAVName.href)?.trimmedText ?? "",
                status: element.child(DAVName.dav("status"))?.trimmedText)
            for propstat in element.children(DAVName.dav("propstat")) {
                let ok = propstat.child(DAVName.dav("status"))?.trimmedText.contains("200") == true
                for property in propstat.child(DAVName.prop)?.children ?? [] {
                    if ok {
                        member.found[property.name.local] = property.trimmedText
                        member.foundElements[property.name.local] = property
                    } else {
                        member.missing.insert(property.name.local)
                    }
                }
            }
            members.append(member)
        }
        self.members = members
        syncToken = root.child(DAVName.syncToken)?.trimmedText
    }

    func member(_ href: String) -> Member? { members.first { $0.href == href } }

    var hrefs: Set<String> { Set(members.map(\.href)) }
}

/// A vCard as a phone writes it.
enum CardText {
    static func card(uid: String, given: String, family: String = "", lines: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "UID:\(uid)", "FN:\(given) \(family)", "N:\(family);\(given);;;"] + lines
            + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }
}
