import Foundation
import KithCore

/// The server side of sync as the engine sees it. `KithClient` is the real one; tests may stand in
/// their own to script failures.
public protocol SyncService: Sendable {
    func push(_ request: PushRequest) async throws -> PushResponse
    func pull(cursor: String?, limit: Int) async throws -> PullResponse
    /// The live socket's address and a current access token for it.
    func liveEndpoint() async throws -> (url: URL, token: String)
    /// The signed-in user's id, nil when signed out.
    func signedInUserID() async throws -> UUID?
}

extension KithClient: SyncService {
    public func push(_ request: PushRequest) async throws -> PushResponse {
        try await authorized(KithAPI.Sync.push, body: request)
    }

    public func pull(cursor: String?, limit: Int) async throws -> PullResponse {
        var query = [URLQueryItem(name: "limit", value: String(limit))]
        if let cursor { query.append(URLQueryItem(name: "cursor", value: cursor)) }
        return try await authorized(KithAPI.Sync.pull, query: query)
    }

    public func liveEndpoint() async throws -> (url: URL, token: String) {
        let session = try await currentSession()
        var components = URLComponents(url: serverURL.appendingPathComponent(KithAPI.Sync.live.relativePath), resolvingAgainstBaseURL: false)
        components?.scheme = serverURL.scheme?.lowercased() == "https" ? "wss" : "ws"
        guard let url = components?.url else { throw KithError.invalidResponse("no live address for \(serverURL)") }
        return (url, session.accessToken)
    }

    public func signedInUserID() async throws -> UUID? {
        try storedSession()?.user.id
    }
}
