import Foundation
import KithCore

/// A device's connection to a Kith server: accounts, the stored session, and authorized requests
/// that refresh the access token transparently when it expires.
public actor KithClient {
    public nonisolated let serverURL: URL
    private let transport: any HTTPTransport
    private let store: any SessionStore
    private let deviceTokens: (any SecretStore<DeviceTokens>)?
    private let now: @Sendable () -> Date
    private var refreshInFlight: Task<StoredSession, any Error>?
    private var observers: [UUID: @Sendable (StoredSession?) -> Void] = [:]

    /// Refresh this long before the access token's stated expiry, so a request never races it.
    private static let refreshMargin: TimeInterval = 30

    /// `deviceTokens` keeps what the server gives this device at sign-in, for later sign-ins
    /// (without it, the device is a new one each time, as a browser without cookies is).
    public init(
        serverURL: URL, store: any SessionStore, deviceTokens: (any SecretStore<DeviceTokens>)? = nil,
        transport: any HTTPTransport = URLSessionTransport(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.serverURL = serverURL
        self.store = store
        self.deviceTokens = deviceTokens
        self.transport = transport
        self.now = now
    }

    // MARK: Session

    /// The session saved on this device, if any (it may have expired on the server).
    public func storedSession() throws -> StoredSession? { try store.load() }

    /// Calls `handler` whenever the session starts, refreshes or ends (including when the server
    /// ends it). Returns a key for `removeObserver`.
    @discardableResult
    public func observeSession(_ handler: @escaping @Sendable (StoredSession?) -> Void) -> UUID {
        let key = UUID()
        observers[key] = handler
        return key
    }

    public func removeObserver(_ key: UUID) { observers[key] = nil }

    private func setSession(_ session: StoredSession?) throws {
        if let session { try store.save(session) } else { try store.clear() }
        for observer in observers.values { observer(session) }
    }

    // MARK: Accounts

    @discardableResult
    public func signUp(email: String, password: String) async throws -> UserDTO {
        try checkLocally(CredentialRules.validateEmail(CredentialRules.normalizedEmail(email)))
        try checkLocally(CredentialRules.validateNewPassword(password))
        let answer: AuthSessionResponse = try await send(
            KithAPI.Auth.signUp, body: CredentialsRequest(email: email, password: password))
        try adopt(answer)
        rememberDevice(answer)
        return answer.user
    }

    @discardableResult
    public func signIn(email: String, password: String) async throws -> UserDTO {
        let known = (try? deviceTokens?.load())?.byEmail[CredentialRules.normalizedEmail(email)]
        let answer: AuthSessionResponse = try await send(
            KithAPI.Auth.logIn, body: CredentialsRequest(email: email, password: password, deviceToken: known))
        try adopt(answer)
        rememberDevice(answer)
        return answer.user
    }

    /// Keeps the device token of a sign-in. Best effort: failing to keep it only means this
    /// device is treated as a new one next time.
    private func rememberDevice(_ answer: AuthSessionResponse) {
        guard let deviceTokens, let token = answer.deviceToken else { return }
        var tokens = (try? deviceTokens.load()) ?? DeviceTokens()
        tokens.byEmail[CredentialRules.normalizedEmail(answer.user.email)] = token
        try? deviceTokens.save(tokens)
    }

    /// Ends the session on the server when it can be reached, and always forgets it on this device.
    public func signOut() async throws {
        if try store.load() != nil {
            // Refreshes an expired access token first, so the server really ends the session.
            _ = try? await authorizedExchange(KithAPI.Auth.logOut, body: Optional<Empty>.none)
        }
        try setSession(nil)
    }

    /// Exchanges the refresh token for a new pair. Concurrent callers share one exchange, because
    /// a refresh token works only once.
    @discardableResult
    public func refresh() async throws -> StoredSession {
        if let refreshInFlight { return try await refreshInFlight.value }
        guard let session = try store.load() else { throw KithError.notSignedIn }
        let task = Task { try await self.exchange(session) }
        refreshInFlight = task
        defer { refreshInFlight = nil }
        return try await task.value
    }

    private func exchange(_ session: StoredSession) async throws -> StoredSession {
        do {
            let answer: AuthSessionResponse = try await send(
                KithAPI.Auth.refresh, body: RefreshRequest(refreshToken: session.refreshToken))
            return try adopt(answer)
        } catch let error as KithError {
            if case .server(let status, _) = error, status == 401 {
                try setSession(nil)
                throw KithError.sessionExpired
            }
            throw error
        }
    }

    public func me() async throws -> UserDTO {
        let user: UserDTO = try await authorized(KithAPI.Auth.me)
        if var session = try store.load(), session.user != user {
            session.user = user
            try setSession(session)
        }
        return user
    }

    /// Changes the password; this device stays signed in, every other session ends.
    public func changePassword(current: String, new: String) async throws {
        try checkLocally(CredentialRules.validateNewPassword(new, field: "newPassword"))
        try await authorizedNoContent(KithAPI.Auth.changePassword, body: ChangePasswordRequest(currentPassword: current, newPassword: new))
    }

    /// Asks for a reset mail. Succeeds whether or not the email has an account.
    public func requestPasswordReset(email: String) async throws {
        try checkLocally(CredentialRules.validateEmail(CredentialRules.normalizedEmail(email)))
        _ = try await exchangeChecked(request(KithAPI.Auth.requestPasswordReset, body: PasswordResetRequest(email: email)))
    }

    public func confirmPasswordReset(token: String, newPassword: String) async throws {
        try checkLocally(CredentialRules.validateNewPassword(newPassword, field: "newPassword"))
        _ = try await exchangeChecked(
            request(KithAPI.Auth.confirmPasswordReset, body: PasswordResetConfirmRequest(token: token, newPassword: newPassword)))
    }

    /// Deletes the account and all of its data on the server, then forgets the session here.
    public func deleteAccount(password: String) async throws {
        try await authorizedNoContent(KithAPI.Auth.deleteAccount, body: DeleteAccountRequest(password: password))
        try setSession(nil)
    }

    // MARK: Personal access tokens

    public func createPersonalToken(name: String) async throws -> PersonalTokenDTO {
        try checkLocally(CredentialRules.validateTokenName(name))
        return try await authorized(KithAPI.Tokens.create, body: CreateTokenRequest(name: name))
    }

    public func personalTokens() async throws -> [PersonalTokenDTO] {
        let list: PersonalTokenList = try await authorized(KithAPI.Tokens.list)
        return list.tokens
    }

    public func revokePersonalToken(id: UUID) async throws {
        try await authorizedNoContent(KithAPI.Tokens.revoke, parameters: [id.lowercased])
    }

    // MARK: Authorized requests

    /// Sends a request as the signed-in user and decodes the JSON answer.
    public func authorized<Answer: Decodable>(
        _ route: APIRoute, parameters: [String] = [], query: [URLQueryItem] = [],
        body: (some Encodable & Sendable)? = Optional<Empty>.none
    ) async throws -> Answer {
        try Self.decode(try await authorizedExchange(route, parameters: parameters, query: query, body: body))
    }

    /// Sends a request as the signed-in user, for answers without a body.
    public func authorizedNoContent(
        _ route: APIRoute, parameters: [String] = [], body: (some Encodable & Sendable)? = Optional<Empty>.none
    ) async throws {
        _ = try await authorizedExchange(route, parameters: parameters, body: body)
    }

    /// A session whose access token is good for a while yet (refreshed first if about to expire),
    /// for requests that do not go through `authorized`, such as the live socket.
    public func currentSession() async throws -> StoredSession {
        guard let session = try store.load() else { throw KithError.notSignedIn }
        if session.accessExpiresAt.timeIntervalSince(now()) < Self.refreshMargin {
            return try await refresh()
        }
        return session
    }

    private func authorizedExchange(
        _ route: APIRoute, parameters: [String] = [], query: [URLQueryItem] = [], body: (some Encodable & Sendable)?
    ) async throws -> HTTPExchangeResponse {
        var session = try await currentSession()
        var outgoing = request(route, parameters: parameters, query: query, body: body)
        outgoing.headers["Authorization"] = "Bearer \(session.accessToken)"
        let response = try await transport.send(outgoing)
        guard Self.isTokenRejection(response) else { return try Self.check(response) }
        // The server ended the access token early (clock drift, restart): one refresh, one retry.
        // If another request already refreshed meanwhile, its new token is used instead.
        if let current = try store.load(), current.accessToken != session.accessToken {
            session = current
        } else {
            session = try await refresh()
        }
        outgoing.headers["Authorization"] = "Bearer \(session.accessToken)"
        let retried = try await transport.send(outgoing)
        if Self.isTokenRejection(retried) {
            try setSession(nil)
            throw KithError.sessionExpired
        }
        return try Self.check(retried)
    }

    // MARK: Plumbing

    /// A 401 about the bearer token itself, not a wrong password in the request body.
    private static func isTokenRejection(_ response: HTTPExchangeResponse) -> Bool {
        guard response.status == 401 else { return false }
        let code = try? WireCoding.decoder().decode(APIErrorBody.self, from: response.body).error.code
        return code != ErrorCode.invalidCredentials.rawValue
    }

    /// An empty body type, for requests without one.
    public struct Empty: Codable, Sendable {}

    @discardableResult
    private func adopt(_ answer: AuthSessionResponse) throws -> StoredSession {
        let session = StoredSession(
            serverURL: serverURL, user: answer.user, accessToken: answer.accessToken, refreshToken: answer.refreshToken,
            accessExpiresAt: now().addingTimeInterval(TimeInterval(answer.expiresIn)))
        try setSession(session)
        return session
    }

    private func checkLocally(_ problem: APIErrorDetail?) throws {
        if let problem { throw KithError.server(status: 422, problem) }
    }

    private func request(
        _ route: APIRoute, parameters: [String] = [], query: [URLQueryItem] = [],
        body: (some Encodable & Sendable)? = Optional<Empty>.none
    ) -> HTTPExchangeRequest {
        let method = route.method
        var url = serverURL.appendingPathComponent(route.path(parameters))
        if !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.queryItems = query
            url = components.url ?? url
        }
        var request = HTTPExchangeRequest(method: method, url: url, headers: ["Accept": "application/json"])
        if let body {
            if let writable = body as? any JSONWritable {
                request.body = Data(writable.jsonBytes)
            } else {
                request.body = try? WireCoding.encoder().encode(body)
            }
            request.headers["Content-Type"] = "application/json"
        }
        return request
    }

    private func send<Answer: Decodable>(_ route: APIRoute, body: some Encodable & Sendable) async throws -> Answer {
        try Self.decode(try await exchangeChecked(request(route, body: body)))
    }

    private func exchangeChecked(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        try Self.check(try await transport.send(request))
    }

    private static func check(_ response: HTTPExchangeResponse) throws -> HTTPExchangeResponse {
        guard (200..<300).contains(response.status) else {
            if let body = try? WireCoding.decoder().decode(APIErrorBody.self, from: response.body) {
                throw KithError.server(status: response.status, body.error)
            }
            throw KithError.server(
                status: response.status,
                APIErrorDetail(code: "http_\(response.status)", message: "The server answered \(response.status)."))
        }
        return response
    }

    private static func decode<Answer: Decodable>(_ response: HTTPExchangeResponse) throws -> Answer {
        do {
            if let readable = Answer.self as? any JSONReadable.Type, let answer = try readable.init(json: response.body) as? Answer {
                return answer
            }
            return try WireCoding.decoder().decode(Answer.self, from: response.body)
        } catch {
            throw KithError.invalidResponse("cannot read \(Answer.self): \(error)")
        }
    }
}
