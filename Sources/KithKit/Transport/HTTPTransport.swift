import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP exchange, independent of the networking library, so tests and other platforms can
/// swap the transport.
public struct HTTPExchangeRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPExchangeResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Header lookup ignoring case, as HTTP does.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

public protocol HTTPTransport: Sendable {
    /// Sends the request; throws `KithError.offline` or `.timeout` when the server can't be reached.
    func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse
}

/// The default transport: URLSession (Foundation's, FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    public let timeout: TimeInterval

    /// - Parameter timeout: seconds before a request is given up as `KithError.timeout`.
    public init(timeout: TimeInterval = 10) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 3
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        self.session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    public func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await exchange(urlRequest)
            guard let http = response as? HTTPURLResponse else { throw KithError.invalidResponse("not an HTTP answer") }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPExchangeResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as URLError {
            throw KithError(transportError: error)
        }
    }

    private func exchange(_ request: URLRequest) async throws -> (Data, URLResponse) {
        #if canImport(FoundationNetworking)
            // On Linux, cancelling a task while it awaits `URLSession.data(for:)` can deadlock
            // swift-corelibs-foundation: the cancel handler and the completion take the task's
            // status lock and URLSession's own lock in opposite orders (seen when `async let`
            // siblings were cancelled after one failed). The exchange runs in a task of its own,
            // so a caller's cancellation never reaches URLSession; the request still ends at the
            // timeout.
            let session = self.session
            return try await Task { try await session.data(for: request) }.value
        #else
            return try await session.data(for: request)
        #endif
    }
}
