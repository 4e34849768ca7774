import Foundation
import KithCore
import KithKit
import Synchronization
import Testing

/// A transport that answers from a script and records every request, so client behaviour can be
/// checked without a server.
struct FakeTransport: HTTPTransport {
    typealias Handler = @Sendable (HTTPExchangeRequest) async throws -> HTTPExchangeResponse

    let log = RequestLog()
    private let handler: Handler

    init(_ handler: @escaping Handler) { self.handler = handler }

    /// Replays `answers` in order, one per request; a request past the end is a test failure.
    static func replaying(_ answers: [Result<HTTPExchangeResponse, KithError>]) -> FakeTransport {
        let queue = AnswerQueue(answers)
        return FakeTransport { request in
            let next = queue.next()
            guard let next else {
                Issue.record("unexpected request \(request.method) \(request.url.path)")
                return HTTPExchangeResponse(status: 599, headers: [:], body: Data())
            }
            return try next.get()
        }
    }

    static func replaying(_ answers: HTTPExchangeResponse...) -> FakeTransport {
        replaying(answers.map { .success($0) })
    }

    func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        log.append(request)
        return try await handler(request)
    }
}

final class AnswerQueue: Sendable {
    private let answers: Mutex<[Result<HTTPExchangeResponse, KithError>]>
    init(_ answers: [Result<HTTPExchangeResponse, KithError>]) { self.answers = Mutex(answers) }
    func next() -> Result<HTTPExchangeResponse, KithError>? { answers.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
}

final class RequestLog: Sendable {
    private let storage = Mutex<[HTTPExchangeRequest]>([])
    var requests: [HTTPExchangeRequest] { storage.withLock { $0 } }
    func append(_ request: HTTPExchangeRequest) { storage.withLock { $0.append(request) } }
    /// "METHOD /path" of every request, in order.
    var lines: [String] { requests.map { "\($0.method) \($0.url.path)" } }
}

enum Fixture {
    static let serverURL = URL(string: "https://kith.example")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let user = UserDTO(
        id: UUID(uuidString: "7C9E6679-7425-40DE-944B-E07FC1F90AE7")!, email: "ada@example.com",
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))

    static func session(access: String = "kat_old", refresh: String = "krt_old", expiresAt: Date = now.addingTimeInterval(1800))
        -> StoredSession
    {
        StoredSession(serverURL: serverURL, user: user, accessToken: access, refreshToken: refresh, accessExpiresAt: expiresAt)
    }

    static func json(_ value: some Encodable) -> HTTPExchangeResponse { json(200, value) }

    static func json(_ status: Int, _ value: some Encodable) -> HTTPExchangeResponse {
        HTTPExchangeResponse(
            status: status, headers: ["Content-Type": "application/json"], body: try! WireCoding.encoder().encode(value))
    }

    static func authSession(access: String, refresh: String, expiresIn: Int = 3600) -> HTTPExchangeResponse {
        json(AuthSessionResponse(user: user, accessToken: access, refreshToken: refresh, expiresIn: expiresIn))
    }

    static func error(_ status: Int, _ code: ErrorCode, _ message: String = "refused", field: String? = nil)
        -> HTTPExchangeResponse
    {
        json(status, APIErrorBody(APIErrorDetail(code, message, field: field)))
    }

    static let noContent = HTTPExchangeResponse(status: 204, headers: [:], body: Data())

    static func client(_ transport: FakeTransport, store: any SessionStore, now: Date = now) -> KithClient {
        KithClient(serverURL: serverURL, store: store, transport: transport, now: { now })
    }
}

extension HTTPExchangeRequest {
    func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    func decodedBody<Body: Decodable>(_ type: Body.Type) throws -> Body {
        try WireCoding.decoder().decode(type, from: try #require(body, "the request has no body"))
    }
}
