import Foundation
import KithCore

/// Monica's answers as JSON trees, for a reader that copies whatever a server holds (the import
/// from another server) rather than showing a typed part of it.
extension MonicaClient {
    /// One page of a list, `limit` items long (at most 100): its items, whether more follow, and
    /// how many the list holds when the server says.
    public func jsonPage(_ path: String, _ query: [(String, String)] = [], page: Int, limit: Int = 100) async throws
        -> (items: [JSONTree], hasMore: Bool, total: Int?)
    {
        let query = query + [("page", String(max(page, 1))), ("limit", String(min(max(limit, 1), 100)))]
        let data = try await exchange("GET", path, query, payload: nil, contentType: nil)
        guard let tree = JSONTree.parse(data) else { throw MonicaClientError.invalidResponse("GET \(path): not JSON") }
        guard let items = tree["data"]?.arrayValue else {
            throw MonicaClientError.invalidResponse("GET \(path): no data list")
        }
        let current = tree["meta"]?["current_page"].flatMap(Self.number) ?? page
        let last = tree["meta"]?["last_page"].flatMap(Self.number) ?? current
        let total = tree["meta"]?["total"].flatMap(Self.number)
        return (items, current < last && current >= page && !items.isEmpty, total)
    }

    /// The `data` of an answer to `method` on `path`, with `body` as JSON. A write names itself
    /// with `idempotencyKey`, so sending it again (its answer lost) makes it once.
    public func json(
        _ method: String, _ path: String, _ query: [(String, String)] = [], body: JSONTree? = nil,
        idempotencyKey: String? = nil
    ) async throws -> JSONTree {
        let data = try await exchange(
            method, path, query, payload: body.map { Data($0.serialized()) },
            contentType: body == nil ? nil : "application/json",
            headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:])
        return try Self.tree(data, method, path)
    }

    /// Sends `form` as `multipart/form-data` (a document or a photo with its contact) and reads
    /// the answer's `data`.
    public func upload(_ path: String, _ form: MultipartFormData, idempotencyKey: String? = nil) async throws
        -> JSONTree
    {
        let boundary = MultipartFormData.makeBoundary()
        let data = try await exchange(
            "POST", path, [], payload: Data(form.encoded(boundary: boundary)),
            contentType: MultipartFormData.contentType(boundary: boundary),
            headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:])
        return try Self.tree(data, "POST", path)
    }

    /// The bytes at `link` (a document's or photo's `link`). The API token goes only to the
    /// server's own origin: a link elsewhere (a storage bucket) is fetched without it.
    public func download(_ link: String) async throws -> Data {
        guard let url = URL(string: link), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http"
        else {
            throw MonicaClientError.invalidResponse("a file link that is not a web address: \(link)")
        }
        let api = server.apiURL
        let sameOrigin =
            url.scheme?.lowercased() == api.scheme?.lowercased() && url.host?.lowercased() == api.host?.lowercased()
            && url.port == api.port
        return try await exchange("GET", url: url, payload: nil, contentType: nil, authorized: sameOrigin)
    }

    private static func tree(_ data: Data, _ method: String, _ path: String) throws -> JSONTree {
        guard let tree = JSONTree.parse(data) else {
            throw MonicaClientError.invalidResponse("\(method) \(path): not JSON")
        }
        return tree["data"] ?? tree
    }

    /// Monica's numbers, sometimes sent as text.
    static func number(_ value: JSONTree) -> Int? {
        if let int = value.intValue { return Int(exactly: int) }
        return value.stringValue.flatMap { Int($0) }
    }
}
