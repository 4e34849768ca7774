import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// One answer of `/api`, parsed.
struct MonicaAnswer: Sendable {
    let status: HTTPResponse.Status
    let json: JSONTree
    let headers: HTTPFields
    let text: String

    subscript(key: String) -> JSONTree? { json[key] }
    var data: JSONTree? { json["data"] }
    var dataID: Int64? { json["data"]?["id"]?.intValue }
}

/// A Monica API client signed in as one Kith user (a personal access token), for router tests.
struct MonicaUser: Sendable {
    let client: any TestClientProtocol
    let token: String

    func call(_ method: HTTPRequest.Method, _ path: String, _ body: JSONTree? = nil, headers extra: HTTPFields = [:])
        async throws -> MonicaAnswer
    {
        var headers = extra
        headers[.authorization] = "Bearer \(token)"
        if headers[.accept] == nil { headers[.accept] = "application/json" }
        if body != nil && headers[.contentType] == nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0.serialized()) })
        let text = String(buffer: response.body)
        return MonicaAnswer(
            status: response.status, json: JSONTree.parse(Data(text.utf8)) ?? .null, headers: response.headers,
            text: text)
    }

    func get(_ path: String) async throws -> MonicaAnswer { try await call(.get, path) }
    func post(_ path: String, _ body: JSONTree = [:]) async throws -> MonicaAnswer { try await call(.post, path, body) }
    func put(_ path: String, _ body: JSONTree = [:]) async throws -> MonicaAnswer { try await call(.put, path, body) }
    func delete(_ path: String) async throws -> MonicaAnswer { try await call(.delete, path) }

    /// A contact made through the API; its id.
    func contact(_ first: String, _ last: String? = nil, extra: [(String, JSONTree)] = []) async throws -> Int64 {
        var body = JSONObject([
            ("first_name", .string(first)), ("last_name", .nullable(last)), ("is_birthdate_known", false),
            ("is_deceased", false), ("is_deceased_date_known", false),
        ])
        for (key, value) in extra { body[key] = value }
        let answer = try await post("/api/contacts", .object(body))
        #expect(answer.status == .created, "creating \(first): \(answer.text)")
        return try #require(answer.dataID)
    }
}

/// A server for Monica tests: two users (to check isolation), a clock the test can set, and a
/// rate limit high enough not to get in the way (the rate-limit test sets its own).
enum MonicaHarness {
    static func run(
        _ engine: Engine, start: Date? = nil, configure: @escaping @Sendable (inout ServerConfig) -> Void = { _ in },
        _ body: @escaping @Sendable (MonicaUser, MonicaUser, TestServer) async throws -> Void
    ) async throws {
        let clock = start.map { TestClock($0) }
        try await TestServer.withRouter(
            engine,
            configure: { config in
                if let clock { config.clock = clock.clock }
                config.monica.rateLimitPerMinute = 100_000
                configure(&config)
            }
        ) { server, client in
            let me = try await user(client, "me@example.com")
            let other = try await user(client, "other@example.com")
            try await body(me, other, server)
        }
    }

    static func user(_ client: any TestClientProtocol, _ email: String) async throws -> MonicaUser {
        let session = try await client.signUp(email)
        let response = try await client.call(
            .post, "/v1/tokens", json: #"{"name":"monica"}"#, token: session.accessToken)
        let token = try #require(JSONTree.parse(Data(buffer: response.body))?["token"]?.stringValue)
        return MonicaUser(client: client, token: token)
    }

    /// 2018-01-01 07:00:00 UTC, the "now" of Monica's own date tests.
    static let monicaTestNow = Date(timeIntervalSince1970: 1_514_790_000)
}

// MARK: What Monica's API tests assert

/// `expectNotFound`: 404 with code 31.
func expectNotFound(_ answer: MonicaAnswer, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(answer.status == .notFound, "\(answer.text)", sourceLocation: sourceLocation)
    #expect(
        answer.json == ["error": ["message": "The resource has not been found", "error_code": 31]], "\(answer.text)",
        sourceLocation: sourceLocation)
}

/// `expectDataError`: 422, code 32, these messages first and in this order.
func expectDataError(_ answer: MonicaAnswer, _ messages: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(answer.status == .unprocessableContent, "\(answer.text)", sourceLocation: sourceLocation)
    #expect(answer["error"]?["error_code"] == 32, "\(answer.text)", sourceLocation: sourceLocation)
    let got = answer["error"]?["message"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(Array(got.prefix(messages.count)) == messages, "\(answer.text)", sourceLocation: sourceLocation)
}

/// `assertJsonStructure`: every dotted path exists (`*` = every element of an array).
func expectStructure(_ tree: JSONTree?, _ paths: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    guard let tree else {
        Issue.record("no document to check", sourceLocation: sourceLocation)
        return
    }
    for path in paths {
        let missing = missingPaths(tree, path.split(separator: ".").map(String.init), prefix: "")
        #expect(missing.isEmpty, "missing \(missing)", sourceLocation: sourceLocation)
    }
}

private func missingPaths(_ tree: JSONTree, _ keys: [String], prefix: String) -> [String] {
    guard let key = keys.first else { return [] }
    if key == "*" {
        guard let items = tree.arrayValue ?? tree.objectValue?.members.map(\.value) else { return [prefix + "*"] }
        return items.flatMap { missingPaths($0, Array(keys.dropFirst()), prefix: prefix + "*.") }
    }
    guard let next = tree[key] else { return [prefix + key] }
    return missingPaths(next, Array(keys.dropFirst()), prefix: prefix + key + ".")
}

/// `assertJsonFragment`: each pair appears in some object of the document.
func expectFragment(
    _ answer: MonicaAnswer, _ pairs: [(String, JSONTree)], sourceLocation: SourceLocation = #_sourceLocation
) {
    for (key, value) in pairs {
        #expect(
            contains(answer.json, key, value), "no \"\(key)\": \(value.text) in \(answer.text.prefix(600))",
            sourceLocation: sourceLocation)
    }
}

/// `assertJsonMissing`: no object has all these pairs.
func expectMissing(
    _ answer: MonicaAnswer, _ pairs: [(String, JSONTree)], sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(!containsObject(answer.json, pairs), "found \(pairs)", sourceLocation: sourceLocation)
}

func contains(_ tree: JSONTree, _ key: String, _ value: JSONTree) -> Bool {
    switch tree {
    case .object(let object):
        if object[key] == value { return true }
        return object.members.contains { contains($0.value, key, value) }
    case .array(let items): return items.contains { contains($0, key, value) }
    default: return false
    }
}

func containsObject(_ tree: JSONTree, _ pairs: [(String, JSONTree)]) -> Bool {
    switch tree {
    case .object(let object):
        if pairs.allSatisfy({ object[$0.0] == $0.1 }) { return true }
        return object.members.contains { containsObject($0.value, pairs) }
    case .array(let items): return items.contains { containsObject($0, pairs) }
    default: return false
    }
}

/// Ids of the objects listed in `data`.
func ids(_ answer: MonicaAnswer) -> [Int64] { answer.data?.arrayValue?.compactMap { $0["id"]?.intValue } ?? [] }
