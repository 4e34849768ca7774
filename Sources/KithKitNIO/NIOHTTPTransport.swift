import AsyncHTTPClient
import Foundation
import KithKit
import NIOCore

/// HTTP over SwiftNIO (AsyncHTTPClient), for the command line on Linux. FoundationNetworking's
/// URLSession drives curl through libdispatch sources there, and waking its manager thread for
/// every chunk of a body took about a third of a device's CPU on a push or a pull of thousands of
/// records. Errors come out as `URLSessionTransport` gives them: `.timeout` when the
/// server does not answer in time, `.offline` when it can't be reached.
public struct NIOHTTPTransport: HTTPTransport {
    public let timeout: TimeInterval
    /// The largest answer read; a pull page of 500 records is well under a megabyte.
    static let maxResponseBytes = 256 << 20

    /// - Parameter timeout: seconds the whole exchange may take, as `URLSessionTransport`'s timeout.
    public init(timeout: TimeInterval = 10) {
        self.timeout = timeout
    }

    /// One client for the process, as `HTTPClient.shared` is (never shut down), except that a
    /// connection refused fails the request at once, as URLSession does: the shared client retries
    /// until the deadline, so a device with its server down waited the whole timeout to hear it.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    public func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = .init(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let deadline = NIODeadline.now() + .milliseconds(Int64(timeout * 1000))
        do {
            let response = try await Self.client.execute(outgoing, deadline: deadline)
            let body = try await response.body.collect(upTo: Self.maxResponseBytes)
            var headers: [String: String] = [:]
            for header in response.headers { headers[header.name] = header.value }
            return HTTPExchangeResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
        } catch let error as CancellationError {
            throw error
        } catch {
            throw Self.kithError(error)
        }
    }

    static func kithError(_ error: any Error) -> KithError {
        if let error = error as? KithError { return error }
        switch error as? HTTPClientError {
        case .deadlineExceeded?, .readTimeout?, .writeTimeout?, .connectTimeout?, .getConnectionFromPoolTimeout?:
            return .timeout
        default:
            // Refused or reset connections, DNS, TLS, an unusable URL: as URLSessionTransport reports them.
            return .offline
        }
    }
}
