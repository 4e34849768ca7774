import Foundation
import Hummingbird
import KithCore

/// What an `/api` handler works with: the caller's Monica account, the time, and the request, to
/// read its path ids, page and body. Repositories and presenters never see it: handlers read what
/// they need, call a repository with plain values, and present what it returns.
struct MonicaRequest: Sendable {
    let account: MonicaAccount
    /// Where this server is reached, for the absolute URLs Monica puts in its answers.
    let baseURL: String
    let now: Int64
    let request: Request
    let context: AppRequestContext

    var accountID: Int64 { account.id }

    /// What presenters need of this request: where the server is reached and whose account it is.
    var presentation: MonicaPresentation {
        MonicaPresentation(
            baseURL: baseURL, accountID: account.id, meContactID: account.meContactID,
            currency: MonicaCurrency(code: account.currency))
    }

    /// `?with=contactfields`: every answer that contains full contacts then adds their fields and last notes.
    var withContactFields: Bool { request.uri.formQuery.get("with") == "contactfields" }

    /// A numeric path parameter; anything else names no object (404).
    func id(_ name: String = "id") throws -> Int64 {
        guard let text = context.parameters.get(name), let id = Int64(text) else { throw MonicaError.notFound }
        return id
    }

    /// The path parameter as written, for the deletions Monica answers with the text.
    func rawID(_ name: String = "id") -> String { context.parameters.get(name) ?? "" }

    /// The id of a deletion: not a number is 404, or Monica's validation error naming `attribute`.
    func deletedID(attribute: String?) throws -> Int64 {
        guard let id = Int64(rawID()) else {
            if let attribute { throw MonicaError.invalid("The \(attribute) must be an integer.") }
            throw MonicaError.notFound
        }
        return id
    }

    func input() async throws -> MonicaInput { try await MonicaInput.read(request) }

    /// The versions of the object a change was made against (`If-Match`); nil when it names none.
    func ifMatch() throws -> IfMatch? { try IfMatch.read(request) }

    func page(sortable: Set<String> = ["created_at", "updated_at"]) throws -> PageRequest {
        try PageRequest(request, sortableHere: sortable)
    }

    /// The index URL of this request (its path without query), for page links.
    var indexURL: String {
        var path = request.uri.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return baseURL + path
    }
}
