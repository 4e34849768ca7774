import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

@Suite("Bad input never crashes or changes anything")
struct RobustnessTests {
    @Test(arguments: Engine.available)
    func bodiesOverOneMebibyteAreRefused(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let huge = #"{"email":"ada@example.com","password":""# + String(repeating: "a", count: 1 << 20) + #""}"#
            let response = try await client.call(.post, "/v1/auth/signup", json: huge)
            #expect(response.status == .contentTooLarge)
            #expect(response.error?.code == "payload_too_large")
            let justUnder = try await client.call(.post, "/v1/auth/signup", json: #"{"email":"a@b.co","password":""# + String(repeating: "a", count: (1 << 20) - 100) + #""}"#)
            #expect(justUnder.status == .unprocessableContent, "a large but allowed body reaches validation")
            // The Monica API and its sign-in answered 500 here: 413 in Laravel's shape.
            let session = try await client.signUp("ada@example.com")
            for path in ["/api/contacts", "/oauth/login"] {
                let answer = try await client.call(.post, path, json: huge, token: session.accessToken)
                #expect(answer.status == .contentTooLarge, "\(path): \(answer.text)")
                #expect(answer.text == #"{"message":"Content Too Large"}"#)
            }
        }
    }

    /// Throws many malformed and hostile requests at every route; none may answer 5xx.
    @Test(arguments: Engine.available)
    func noInputMakesTheServerAnswer500(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let session = try await client.signUp("ada@example.com")
            let bodies: [String?] = [
                nil, "", "null", "[]", "{}", "\"text\"", "42", "{", #"{"email":null,"password":null}"#,
                #"{"email":["a"],"password":{"x":1}}"#, #"{"email":"\u0000@x.io","password":"\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"}"#,
                #"{"refreshToken":123}"#, #"{"token":"","newPassword":""}"#, #"{"name":"\#(String(repeating: "€", count: 5000))"}"#,
                #"{"currentPassword":"x","newPassword":"y"}"#, #"{"password":"𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞𝄞"}"#,
                String(repeating: "[", count: 10_000),
                #"{"clientId":"x","mutations":[{"mutationId":"1","entity":"","id":"","scope":"","op":"nope","hlc":"1"}]}"#,
                #"{"clientId":"00000000-0000-0000-0000-000000000000","mutations":[{"mutationId":"00000000-0000-0000-0000-000000000001","entity":"test.note","id":"00000000-0000-0000-0000-000000000002","scope":"user:x","op":"upsert","fields":{"title":{"nested":1}},"hlc":"000000000000001-00000-n"}]}"#,
            ]
            let routes: [(HTTPRequest.Method, String)] = [
                (.post, "/v1/auth/signup"), (.post, "/v1/auth/login"), (.post, "/v1/auth/refresh"),
                (.post, "/v1/auth/logout"), (.post, "/v1/auth/password"), (.post, "/v1/auth/password-reset"),
                (.post, "/v1/auth/password-reset/confirm"), (.get, "/v1/me"), (.delete, "/v1/me"),
                (.post, "/v1/tokens"), (.get, "/v1/tokens"), (.delete, "/v1/tokens/not-a-uuid"),
                (.delete, "/v1/tokens/%00%ff"), (.get, "/v1/nothing"), (.put, "/v1/me"),
                (.post, "/v1/sync/push"), (.get, "/v1/sync/pull?cursor=%00"), (.get, "/v1/sync/pull?limit=-1"),
            ]
            for (method, path) in routes {
                for body in bodies {
                    for token in [nil, session.accessToken, "kpt_\(String(repeating: "x", count: 300))"] {
                        let response = try await client.call(method, path, json: body, token: token)
                        #expect(response.status.code < 500, "\(method) \(path) \(body ?? "-") answered \(response.status)")
                        if response.status.code >= 400 {
                            #expect(response.error != nil, "\(method) \(path) \(body ?? "-"): \(response.status) without an error body")
                        }
                    }
                }
            }
            // Still the one account, with its password; nothing else was stored.
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .ok)
            let counts = try await server.app.database.run { sql in
                (
                    try await sql.raw("SELECT COUNT(*) AS n FROM users").first(decodingColumn: "n", as: Int.self),
                    try await sql.raw("SELECT COUNT(*) AS n FROM personal_tokens").first(decodingColumn: "n", as: Int.self)
                )
            }
            #expect(counts.0 == 1 && counts.1 == 0)
        }
    }

    @Test(arguments: Engine.available)
    func unknownRoutesAndMethodsGetTheErrorBody(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let missing = try await client.call(.get, "/v1/does-not-exist")
            #expect(missing.status == .notFound)
            #expect(missing.error?.code == "not_found")
            let wrongMethod = try await client.call(.put, "/v1/auth/login", json: "{}")
            #expect(wrongMethod.status == .methodNotAllowed)
            #expect(wrongMethod.headers[.allow] == "POST")
            #expect(wrongMethod.error?.code == "method_not_allowed")
            let tokenRoute = try await client.call(.patch, "/v1/tokens/0b0e1c2a-0000-4000-8000-000000000000")
            #expect(tokenRoute.status == .methodNotAllowed)
            #expect(tokenRoute.headers[.allow] == "DELETE")
            let monica = try await client.call(.delete, "/api/me")
            #expect(monica.status == .methodNotAllowed)
            #expect(monica.headers[.allow] == "GET")
            #expect(monica.text.contains("The DELETE method is not supported for this route. Supported methods: GET."))
            // A browser gets a page for an unknown address; an API client still gets JSON.
            let page = try await client.call(.get, "/no-such-page", headers: [.accept: "text/html,application/xhtml+xml"])
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("There is nothing at this address."))
            let api = try await client.call(.get, "/v1/nothing", headers: [.accept: "text/html"])
            #expect(api.error?.code == "not_found")
        }
    }
}
