import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One outbound HTTP exchange of a food search provider, its whole answer read into memory (at
/// most `maximumBody`). Failures become `FoodSearchProviderError`s naming the provider.
struct OutboundHTTP: Sendable {
    struct Answer: Sendable {
        let status: Int
        let body: ByteBuffer
    }

    let client: HTTPClient
    let provider: String
    let userAgent: String
    /// A backstop for the connection itself; `FoodSearchService` enforces the provider's timeout.
    let timeout: Duration
    static let maximumBody = 4 * 1024 * 1024

    func send(
        _ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "User-Agent", value: userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        do {
            let response = try await client.execute(request, timeout: .milliseconds(max(1, milliseconds)))
            let body = try await response.body.collect(upTo: Self.maximumBody)
            return Answer(status: Int(response.status.code), body: body)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            throw FoodSearchProviderError.timedOut(provider: provider, after: timeout)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as FoodSearchProviderError {
            throw error
        } catch {
            throw FoodSearchProviderError.unreachable(provider: provider, reason: String(describing: error))
        }
    }

    /// The form encoding of `application/x-www-form-urlencoded` bodies and query strings.
    static func formEncoded(_ pairs: [(String, String)]) -> String {
        pairs.map { name, value in "\(name)=\(FormEncoding.encode(value))" }.joined(separator: "&")
    }
}
