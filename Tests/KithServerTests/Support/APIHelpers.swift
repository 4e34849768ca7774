import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import NIOCore
import Testing

/// Small conveniences over the Hummingbird test client for JSON calls.
extension TestClientProtocol {
    @discardableResult
    func call(
        _ method: HTTPRequest.Method, _ path: String, json: String? = nil, token: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if json != nil { headers[.contentType] = "application/json" }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func call<Body: Encodable>(_ method: HTTPRequest.Method, _ path: String, body: Body, token: String? = nil)
        async throws -> TestResponse
    {
        let data = try WireCoding.encoder().encode(body)
        return try await call(method, path, json: String(decoding: data, as: UTF8.self), token: token)
    }

    /// Signs up and returns the session answer.
    func signUp(_ email: String, _ password: String = "correct horse") async throws -> AuthSessionResponse {
        let response = try await call(.post, "/v1/auth/signup", body: CredentialsRequest(email: email, password: password))
        #expect(response.status == .created, "sign-up of \(email) answered \(response.status)")
        return try response.decode(AuthSessionResponse.self)
    }

    func logIn(_ email: String, _ password: String) async throws -> TestResponse {
        try await call(.post, "/v1/auth/login", body: CredentialsRequest(email: email, password: password))
    }
}

extension TestResponse {
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try WireCoding.decoder().decode(T.self, from: Data(buffer: body))
    }

    /// The wire error of a failed call.
    var error: APIErrorDetail? { (try? decode(APIErrorBody.self))?.error }

    var text: String { String(buffer: body) }
}
