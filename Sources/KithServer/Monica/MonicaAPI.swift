import Foundation
import Hummingbird
import KithCore
import SQLKit

/// What one `/api` request works with: the caller's Monica account, storage, the clock, and the
/// request itself.
struct MonicaScope: Sendable {
    let account: MonicaAccount
    let database: KithDatabase
    let accounts: MonicaAccounts
    let searchIndex: ContactSearchIndex
    /// Where this server is reached, for the absolute URLs Monica puts in its answers.
    let baseURL: String
    let now: Int64
    let ids: IdentifierSource
    let request: Request
    let context: AppRequestContext

    var accountID: Int64 { account.id }

    /// `?with=contactfields`: every answer that contains full contacts then adds their fields and last notes.
    var withContactFields: Bool { request.uri.queryParameters.get("with") == "contactfields" }

    /// A numeric path parameter; anything else names no object (404).
    func id(_ name: String = "id") throws -> Int64 {
        guard let text = context.parameters.get(name), let id = Int64(text) else { throw MonicaError.notFound }
        return id
    }

    /// The path parameter as written, for the deletions Monica answers with the text.
    func rawID(_ name: String = "id") -> String { context.parameters.get(name) ?? "" }

    func input() async throws -> MonicaInput { try await MonicaInput.read(request) }

    func page(sortable: Set<String> = ["created_at", "updated_at"]) throws -> PageRequest {
        try PageRequest(request, sortableHere: sortable)
    }

    func url(_ path: String) -> String { "\(baseURL)/api/\(path)" }

    /// The index URL of this request (its path without query), for page links.
    var indexURL: String {
        var path = request.uri.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return baseURL + path
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await database.run(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await database.transaction(body)
    }
}

typealias MonicaHandler = @Sendable (MonicaScope) async throws -> Response

/// Registers `/api` handlers: each gets a `MonicaScope`; PUT routes also answer PATCH, as
/// Laravel's `apiResource` does.
struct MonicaRoutes: Sendable {
    let group: RouterGroup<AppRequestContext>
    let database: KithDatabase
    let accounts: MonicaAccounts
    let searchIndex: ContactSearchIndex
    let address: ServerAddress
    let clock: Clock
    let ids: IdentifierSource

    func get(_ path: String, _ handler: @escaping MonicaHandler) { add(.get, path, handler) }
    func post(_ path: String, _ handler: @escaping MonicaHandler) { add(.post, path, handler) }
    func delete(_ path: String, _ handler: @escaping MonicaHandler) { add(.delete, path, handler) }
    func put(_ path: String, _ handler: @escaping MonicaHandler) {
        add(.put, path, handler)
        add(.patch, path, handler)
    }

    private func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping MonicaHandler) {
        group.on(RouterPath(path), method: method) { request, context in
            let user = try context.requireUser()
            let now = clock.nowMillis
            let scope = MonicaScope(
                account: try await accounts.account(userID: user.id.lowercased, now: now), database: database,
                accounts: accounts, searchIndex: searchIndex, baseURL: address.publicURL, now: now, ids: ids, request: request,
                context: context)
            return try await handler(scope)
        }
    }
}
