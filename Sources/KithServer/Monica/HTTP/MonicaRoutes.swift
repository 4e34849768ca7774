import Foundation
import Hummingbird
import KithCore

typealias MonicaHandler = @Sendable (MonicaRequest) async throws -> Response

/// Registers `/api` handlers: each gets a `MonicaRequest` for the caller's account; PUT routes
/// also answer PATCH, as Laravel's `apiResource` does.
struct MonicaRoutes: Sendable {
    let group: RouterGroup<AppRequestContext>
    let accounts: MonicaAccountRepository
    let address: ServerAddress
    let clock: Clock

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
            let call = MonicaRequest(
                account: try await accounts.account(userID: user.id.lowercased, now: now), baseURL: address.publicURL,
                now: now, request: request, context: context)
            return try await handler(call)
        }
    }
}
