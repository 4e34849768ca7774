import Foundation
import Hummingbird
import HummingbirdTesting
import KithTestSupport
import NIOCore
import Synchronization
import Testing

/// A stand-in for a real Monica on a loopback port: it answers with recorded Monica bodies
/// (Tests/fixtures/monica/), checks the bearer token as Monica does, records every request, and
/// can be told to answer a route differently (an error, a delay) for one test.
final class MonicaStub: Sendable {
    static let token = "monica-personal-token"

    struct Answer: Sendable {
        var status: Int = 200
        var fixture: String
        var headers: [String: String] = [:]
        var delay: Duration = .zero
        /// Bytes to answer instead of the fixture (a file behind a document's or photo's link).
        var bytes: Data?
    }

    struct Recorded: Sendable {
        let method: String
        let path: String
        let query: [String: String]
        let body: Data
    }

    private let answers: Mutex<[String: Answer]>
    private let log = Mutex<[Recorded]>([])
    /// Where the recorded bodies' links (`https://monica.example/…`) point: nowhere, unless a test
    /// asks for them to lead to this stub (`linkToItself`), as a real Monica's links lead to it.
    private let ownAddress = Mutex<String?>(nil)
    private let linksToItself = Mutex(false)

    init() {
        answers = Mutex([
            "GET /api/me": Answer(fixture: "me"),
            "GET /api/contacts?page=1": Answer(fixture: "contacts-page-1"),
            "GET /api/contacts?page=2": Answer(fixture: "contacts-page-2"),
            "GET /api/contacts/42": Answer(fixture: "contact-42"),
            "GET /api/contacts/42/notes": Answer(fixture: "notes-42"),
            "GET /api/contacts/42/tasks": Answer(fixture: "tasks-42"),
            "GET /api/contacts/42/activities": Answer(fixture: "activities-42"),
            "GET /api/contacts/42/gifts": Answer(fixture: "gifts-42"),
            "GET /api/contacts/42/reminders": Answer(fixture: "reminders-42"),
            "GET /api/contacts/42/relationships": Answer(fixture: "relationships-42"),
            "GET /api/contacts/42/addresses": Answer(fixture: "addresses-42"),
            "GET /api/contacts/42/calls": Answer(fixture: "calls-42"),
            "GET /api/contacts/42/debts": Answer(fixture: "debts-42"),
            "GET /api/contacts/42/pets": Answer(fixture: "pets-42"),
            "GET /api/contacts/42/conversations": Answer(fixture: "conversations-42"),
            "GET /api/contacts/42/documents": Answer(fixture: "documents-42"),
            "GET /api/contacts/42/photos": Answer(fixture: "photos-42"),
            "GET /api/contacts/42/logs": Answer(fixture: "logs-42"),
            // Monica lists life events per account only: `/api/contacts/42/lifeevents` is 404 there.
            "GET /api/lifeevents": Answer(fixture: "lifeevents"),
            "GET /api/journal": Answer(fixture: "journal"),
            "GET /api/places": Answer(fixture: "places"),
            "GET /api/companies": Answer(fixture: "companies"),
            "GET /api/occupations": Answer(fixture: "occupations"),
            "POST /api/addresses": Answer(status: 201, fixture: "address-created"),
            "DELETE /api/addresses/11": Answer(fixture: "deleted-address"),
            "GET /api/countries": Answer(fixture: "countries"),
        ])
    }

    /// From now on the recorded bodies' `https://monica.example` links lead to this stub.
    func linkToItself() { linksToItself.withLock { $0 = true } }

    /// Answers `route` ("GET /api/contacts/42", optionally with "?page=N") with `answer` from now on.
    func answer(_ route: String, _ answer: Answer) { answers.withLock { $0[route] = answer } }

    var requests: [Recorded] { log.withLock { $0 } }

    /// "METHOD /path" of every request, in order.
    var lines: [String] { requests.map { "\($0.method) \($0.path)" } }

    /// Runs the stub on 127.0.0.1 with a free port for the duration of `body`.
    func run(_ body: @Sendable (URL) async throws -> Void) async throws {
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("**", method: method) { request, _ in try await self.respond(request) }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            ownAddress.withLock { $0 = "http://127.0.0.1:\(port)" }
            try await body(URL(string: "http://127.0.0.1:\(port)/api")!)
        }
    }

    private func respond(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        let path = request.uri.path
        log.withLock {
            $0.append(Recorded(method: request.method.rawValue, path: path, query: query, body: Data(buffer: body)))
        }
        guard request.headers[.authorization] == "Bearer \(Self.token)" else {
            return try Self.response(Answer(status: 401, fixture: "error-401"))
        }
        let route = "\(request.method.rawValue) \(path)"
        let answer = answers.withLock { answers in
            query["page"].flatMap { answers["\(route)?page=\($0)"] } ?? answers[route]
        }
        guard let answer else {
            return Response(
                status: .notFound,
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: #"{"error":{"message":"The resource has not been found","error_code":31}}"#)))
        }
        if answer.delay > .zero { try await Task.sleep(for: answer.delay) }
        let own = linksToItself.withLock { $0 } ? ownAddress.withLock { $0 } : nil
        return try Self.response(answer, linkingTo: own)
    }

    private static func response(_ answer: Answer, linkingTo own: String? = nil) throws -> Response {
        var headers: HTTPFields = [.contentType: answer.bytes == nil ? "application/json" : "application/octet-stream"]
        for (name, value) in answer.headers { headers[.init(name)!] = value }
        var body: Data
        if let bytes = answer.bytes {
            body = bytes
        } else {
            let file = RepositoryPaths.root.appendingPathComponent("Tests/fixtures/monica/\(answer.fixture).json")
            body = try Data(contentsOf: file)
            if let own {
                // Recorded bodies write the address plain and with PHP's `\/` escapes.
                body = Data(
                    String(decoding: body, as: UTF8.self)
                        .replacingOccurrences(of: "https://monica.example", with: own)
                        .replacingOccurrences(
                            of: #"https:\/\/monica.example"#, with: own.replacingOccurrences(of: "/", with: #"\/"#)
                        ).utf8)
            }
        }
        return Response(
            status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(data: body)))
    }
}
