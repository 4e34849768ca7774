import Foundation
import KithCore

/// A device's connection to a Monica 4.x server (a real Monica, cloud or self-hosted, or Kith's
/// own `/api`): typed resources, pagination, and errors mapped to what a person should read.
/// It has no cache of its own: `ContactBook` keeps what it fetches for offline use.
public actor MonicaClient {
    public nonisolated let server: MonicaServerAddress
    private let token: @Sendable () async throws -> String
    private let transport: any HTTPTransport
    private let signedOut: @Sendable () async -> Void
    private var pause: @Sendable (Int) async throws -> Void

    /// How many times a read waits out a 429 (for its `Retry-After`, at most a minute) before
    /// reporting it. 0 by default: a person should see "please wait", not a frozen screen; a
    /// background sync of thousands of contacts at Monica's 60 requests a minute sets it higher.
    public var rateLimitPatience = 0

    /// A client with a fixed API token (a Monica personal access token, or a Kith one).
    public init(server: MonicaServerAddress, token: String, transport: any HTTPTransport = URLSessionTransport()) {
        self.init(server: server, transport: transport, token: { token })
    }

    /// A client whose token comes from elsewhere for each request (a Kith session that refreshes
    /// itself); `onSignedOut` runs when the server refuses it.
    public init(
        server: MonicaServerAddress, transport: any HTTPTransport = URLSessionTransport(),
        pause: @escaping @Sendable (Int) async throws -> Void = { try await Task.sleep(for: .seconds($0)) },
        onSignedOut: @escaping @Sendable () async -> Void = {}, token: @escaping @Sendable () async throws -> String
    ) {
        self.server = server
        self.token = token
        self.transport = transport
        self.signedOut = onSignedOut
        self.pause = pause
    }

    /// How many times a read waits out a 429, and how it waits (by default it sleeps).
    public func setRateLimitPatience(_ waits: Int, pause: (@Sendable (Int) async throws -> Void)? = nil) {
        rateLimitPatience = max(0, waits)
        if let pause { self.pause = pause }
    }

    // MARK: Connecting

    /// Checks `token` with `GET /me` and, when Monica accepts it, saves the
    /// connection in `store` (the Keychain on Apple platforms). A refused token saves nothing and
    /// throws `.invalidToken`.
    public static func connect(
        to server: MonicaServerAddress, token: String, store: (any SecretStore<MonicaCredentials>)? = nil,
        transport: any HTTPTransport = URLSessionTransport()
    ) async throws -> (client: MonicaClient, credentials: MonicaCredentials) {
        let token = token.trimmedWhitespace
        guard !token.isEmpty else { throw MonicaClientError.invalid("Enter your API token.") }
        let probe = MonicaClient(server: server, token: token, transport: transport)
        let user: MonicaUser
        do {
            user = try await probe.me()
        } catch MonicaClientError.signedOut {
            throw MonicaClientError.invalidToken
        }
        let credentials = MonicaCredentials(server: server, token: token, user: user)
        if let store { try Self.storing { try store.save(credentials) } }
        return (restoring(credentials, store: store, transport: transport), credentials)
    }

    /// The connection saved on this device, or nil (relaunching stays signed in).
    /// When the server later refuses the token, the saved connection is removed.
    public static func restore(
        from store: any SecretStore<MonicaCredentials>, transport: any HTTPTransport = URLSessionTransport()
    ) throws -> (client: MonicaClient, credentials: MonicaCredentials)? {
        guard let credentials = try storing({ try store.load() }) else { return nil }
        return (restoring(credentials, store: store, transport: transport), credentials)
    }

    private static func restoring(
        _ credentials: MonicaCredentials, store: (any SecretStore<MonicaCredentials>)?, transport: any HTTPTransport
    ) -> MonicaClient {
        MonicaClient(server: credentials.server, transport: transport, onSignedOut: { try? store?.clear() }) {
            credentials.token
        }
    }

    private static func storing<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as MonicaClientError { throw error } catch let error as KithError {
            throw MonicaClientError(error)
        } catch {
            throw MonicaClientError.storage("\(error)")
        }
    }

    // MARK: Requests

    func get<T: Decodable>(_ path: String, _ query: [(String, String)] = []) async throws -> T {
        try await send("GET", path, query, body: nil as NoBody?)
    }

    /// The object of a `{"data": …}` answer.
    func object<T: Decodable>(_ path: String, _ query: [(String, String)] = []) async throws -> T {
        let envelope: MonicaEnvelope<T> = try await get(path, query)
        return envelope.data
    }

    /// Sends `body` and reads the object of the `{"data": …}` answer.
    func object<T: Decodable, Body: Encodable>(_ method: String, _ path: String, body: Body) async throws -> T {
        let envelope: MonicaEnvelope<T> = try await send(method, path, body: body)
        return envelope.data
    }

    func delete(_ path: String) async throws {
        let answer: MonicaDeletion = try await send("DELETE", path, body: nil as NoBody?)
        guard answer.deleted else { throw MonicaClientError.invalidResponse("DELETE \(path) did not delete") }
    }

    struct NoBody: Encodable {}

    func send<T: Decodable, Body: Encodable>(
        _ method: String, _ path: String, _ query: [(String, String)] = [], body: Body?
    ) async throws -> T {
        let data = try await exchange(method, path, query, body: body)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw MonicaClientError.invalidResponse("\(method) \(path): \(Self.describe(error))")
        }
    }

    /// One page of a list, `limit` items long (Monica allows up to 100).
    func page<Item: LenientDecodable>(
        _ path: String, _ query: [(String, String)] = [], page: Int, limit: Int
    ) async throws -> MonicaPage<Item> {
        try await get(path, query + [("page", String(max(page, 1))), ("limit", String(min(max(limit, 1), 100)))])
    }

    /// Every page of a list, fetched as the caller asks for the next one.
    nonisolated func pages<Item: LenientDecodable>(
        _ path: String, _ query: [(String, String)] = [], limit: Int = 100
    ) -> MonicaPages<Item> {
        MonicaPages { number in try await self.page(path, query, page: number, limit: limit) }
    }

    private func exchange<Body: Encodable>(
        _ method: String, _ path: String, _ query: [(String, String)], body: Body?
    ) async throws -> Data {
        try await exchange(
            method, path, query, payload: try body.map { try JSONEncoder().encode($0) },
            contentType: body == nil ? nil : "application/json")
    }

    /// One request with a body already encoded (`contentType` its type), its answer's body on
    /// success; Monica's error answers thrown as `MonicaClientError`.
    func exchange(
        _ method: String, _ path: String, _ query: [(String, String)], payload: Data?, contentType: String?,
        headers extra: [String: String] = [:]
    ) async throws -> Data {
        try await exchange(
            method, url: server.url(path, query), payload: payload, contentType: contentType, headers: extra)
    }

    /// One request to `url` (under the API root, or a file link the server gave), as above. A 429
    /// is waited out (as `rateLimitPatience` allows) for reads, and for writes that carry an
    /// `Idempotency-Key`: a refused write did nothing, and the key keeps a repeat from making two.
    func exchange(
        _ method: String, url: URL, payload: Data?, contentType: String?, headers extra: [String: String] = [:],
        authorized: Bool = true
    ) async throws -> Data {
        var headers = extra.merging(["Accept": "application/json"]) { $1 }
        if authorized {
            do {
                headers["Authorization"] = "Bearer \(try await self.token())"
            } catch let error as KithError {
                // A token from a Kith session fails as the session does (offline, expired…).
                throw MonicaClientError(error)
            }
        }
        if let contentType { headers["Content-Type"] = contentType }
        let request = HTTPExchangeRequest(method: method, url: url, headers: headers, body: payload)
        let mayRepeat = method == "GET" || extra.keys.contains("Idempotency-Key")
        var waits = 0
        while true {
            let response: HTTPExchangeResponse
            do {
                response = try await transport.send(request)
            } catch let error as KithError {
                throw MonicaClientError(error)
            }
            if (200..<300).contains(response.status) { return response.body }
            let error = MonicaAnswerError.read(response)
            if case .rateLimited(let seconds) = error, mayRepeat, waits < rateLimitPatience {
                waits += 1
                try await pause(min(seconds ?? 60, 60))
                continue
            }
            if case .signedOut = error, authorized { await signedOut() }
            throw error
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            "missing \((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.dataCorrupted(let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: "\(error)"
        }
    }
}

/// Turns Monica's error answers into `MonicaClientError`.
enum MonicaAnswerError {
    static func read(_ response: HTTPExchangeResponse) -> MonicaClientError {
        switch response.status {
        case 401: return .signedOut
        case 404: return .notFound
        case 429: return .rateLimited(retryAfter: response.header("Retry-After").flatMap { Int($0) })
        case 500...: return .serverTrouble(status: response.status)
        default: return .rejected(status: response.status, messages: messages(in: response.body))
        }
    }

    /// `{"error":{"message": "…" | ["…"]}}` (Monica), or Laravel's `{"message":…, "errors":{field:[…]}}`.
    static func messages(in body: Data) -> [String] {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return [] }
        func texts(_ value: Any?) -> [String] {
            if let text = value as? String { return [text] }
            if let list = value as? [Any] { return list.compactMap { $0 as? String } }
            return []
        }
        if let error = object["error"] as? [String: Any] { return texts(error["message"]) }
        if let errors = object["errors"] as? [String: Any] {
            let all = errors.keys.sorted().flatMap { texts(errors[$0]) }
            if !all.isEmpty { return all }
        }
        return texts(object["message"])
    }
}

/// The pages of a Monica list as an async sequence: `for try await page in client.contactPages()`.
/// The next page's number comes from `meta.current_page` and `meta.last_page` (Monica's page links
/// drop the `limit` and `query`, so following them would change the list).
public struct MonicaPages<Item: LenientDecodable>: AsyncSequence, Sendable {
    public typealias Element = MonicaPage<Item>
    let fetch: @Sendable (Int) async throws -> MonicaPage<Item>

    public struct AsyncIterator: AsyncIteratorProtocol {
        let fetch: @Sendable (Int) async throws -> MonicaPage<Item>
        var next = 1
        var finished = false

        public mutating func next() async throws -> MonicaPage<Item>? {
            guard !finished else { return nil }
            let page = try await fetch(next)
            // A page that does not move forward ends the list, so a confused server can't loop us.
            finished = !page.hasMore || page.currentPage < next
            next = page.currentPage + 1
            return page
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(fetch: fetch) }

    /// Every item of every page.
    public func allItems() async throws -> [Item] {
        var items: [Item] = []
        for try await page in self { items += page.items }
        return items
    }
}
