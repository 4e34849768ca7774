import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test's own calls to a server's Monica-compatible `/api`, with an API token: what a test
/// sets up that no command does, and reads back to check a command's work.
struct MonicaAPI: Sendable {
    let server: URL
    let token: String

    /// `method` on `/api/path` with `body` as JSON; the answer's `data` (or the whole answer).
    /// Any status but 2xx fails the test, with the answer.
    @discardableResult
    func send(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any {
        var request = URLRequest(url: URL(string: "api/\(path)", relativeTo: server)!)
        request.httpMethod = method
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        return try await answer(request, "\(method) \(path)")
    }

    func object(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> [String: Any] {
        try #require(try await send(method, path, body) as? [String: Any], "\(method) \(path)")
    }

    func get(_ path: String) async throws -> Any { try await send("GET", path) }

    /// Every item of a list, page by page.
    func list(_ path: String) async throws -> [[String: Any]] {
        var items: [[String: Any]] = []
        var page = 1
        while true {
            let separator = path.contains("?") ? "&" : "?"
            var request = URLRequest(
                url: URL(string: "api/\(path)\(separator)limit=100&page=\(page)", relativeTo: server)!)
            request.httpMethod = "GET"
            let whole = try #require(try await answer(request, "GET \(path)", whole: true) as? [String: Any])
            items += try #require(whole["data"] as? [[String: Any]], "GET \(path): \(whole)")
            let meta = whole["meta"] as? [String: Any]
            guard let last = meta?["last_page"] as? Int, page < last else { return items }
            page += 1
        }
    }

    /// The item of `path`'s list whose `name` is `name`.
    func id(in path: String, named name: String) async throws -> Int {
        let items = try await list(path)
        return try #require(items.first { $0["name"] as? String == name }?["id"] as? Int, "no \(name) in \(path)")
    }

    /// A file sent as `multipart/form-data`, with `fields` beside it.
    func upload(_ path: String, _ fields: [String: String], file: String, name: String, bytes: Data) async throws
        -> [String: Any]
    {
        let boundary = "kith-test-\(UUID().uuidString)"
        var body = Data()
        for (key, value) in fields {
            body += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(key)\"\r\n\r\n\(value)\r\n".utf8)
        }
        body += Data(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file)\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                .utf8)
        body += bytes + Data("\r\n--\(boundary)--\r\n".utf8)
        var request = URLRequest(url: URL(string: "api/\(path)", relativeTo: server)!)
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return try #require(try await answer(request, "POST \(path)") as? [String: Any])
    }

    /// The bytes at a link the server gave (a document's or photo's), with the token.
    func download(_ link: String) async throws -> Data {
        var request = URLRequest(url: try #require(URL(string: link)))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        try #require((response as? HTTPURLResponse)?.statusCode == 200, "GET \(link)")
        return data
    }

    private func answer(_ request: URLRequest, _ what: String, whole: Bool = false) async throws -> Any {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        try #require((200..<300).contains(status), "\(what): \(status) \(String(decoding: data, as: UTF8.self))")
        let tree = try JSONSerialization.jsonObject(with: data)
        if whole { return tree }
        return (tree as? [String: Any])?["data"] ?? tree
    }
}
