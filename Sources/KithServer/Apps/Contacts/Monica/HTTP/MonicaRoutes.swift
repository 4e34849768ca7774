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
            let account: MonicaAccount
            if let known = user.monicaAccount {
                account = known
            } else {
                account = try await accounts.account(userID: user.id.lowercased, now: now)
            }
            let call = MonicaRequest(
                account: account, baseURL: address.publicURL, now: now, request: request, context: context)
            return try await handler(call)
        }
    }
}

extension MonicaRoutes {
    /// `GET path`: a page of records, presented one by one in Laravel's paginator envelope.
    func index<Record: Sendable>(
        _ path: String, sortable: Set<String> = ["created_at", "updated_at"],
        load: @escaping @Sendable (MonicaRequest, PageRequest) async throws -> RecordPage<Record>,
        present: @escaping @Sendable (Record, MonicaPresentation) -> JSONTree
    ) {
        get(path) { call in
            let page = try call.page(sortable: sortable)
            let found = try await load(call, page)
            return PageEnvelope(
                items: found.records.map { present($0, call.presentation) }, total: found.total, request: page,
                path: call.indexURL
            ).response
        }
    }

    /// `GET path/{id}`: one record as `{"data": …}`, its version as `ETag`.
    func show<Record: MonicaRecord>(
        _ path: String, load: @escaping @Sendable (MonicaRequest, Int64) async throws -> Record,
        present: @escaping @Sendable (Record, MonicaPresentation) -> JSONTree
    ) {
        get("\(path)/{id}") { call in
            let record = try await load(call, try call.id())
            return MonicaResponse.data(present(record, call.presentation), tag: EntityTag(record))
        }
    }

    /// `DELETE path/{id}`: `{"deleted": true, "id": …}`, the id as a number or as the path's text.
    func destroy(
        _ path: String, attribute: String?, answerText: Bool,
        _ delete: @escaping @Sendable (MonicaRequest, Int64) async throws -> Void
    ) {
        self.delete("\(path)/{id}") { call in
            let id = try call.deletedID(attribute: attribute)
            try await delete(call, id)
            return MonicaResponse.deleted(answerText ? .string(call.rawID()) : .int(id))
        }
    }
}
