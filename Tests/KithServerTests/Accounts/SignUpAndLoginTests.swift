import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

@Suite("Sign-up and sign-in")
struct SignUpAndLoginTests {
    @Test(arguments: Engine.available)
    func signUpReturnsTheUserAndATokenPair(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let response = try await client.call(
                .post, "/v1/auth/signup", json: #"{"email":"  Ada@Example.COM ","password":"correct horse"}"#)
            #expect(response.status == .created)
            let session = try response.decode(AuthSessionResponse.self)
            #expect(session.user.email == "ada@example.com")
            #expect(session.user.createdAt == server.clock.now.roundedToMilliseconds)
            #expect(session.expiresIn == 3600)
            #expect(session.accessToken.count >= 43 && session.refreshToken.count >= 43)
            #expect(session.accessToken != session.refreshToken)

            let me = try await client.call(.get, "/v1/me", token: session.accessToken)
            #expect(me.status == .ok)
            #expect(try me.decode(UserDTO.self) == session.user)
            #expect(me.text.contains(session.user.id.uuidString.lowercased()))
        }
    }

    @Test(arguments: Engine.available)
    func signUpRefusesBadInputAndCreatesNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let cases: [(String, HTTPResponse.Status, String, String?)] = [
                (#"{"email":"not-an-email","password":"correct horse"}"#, .unprocessableContent, "invalid_email", "email"),
                (#"{"email":"a@b","password":"correct horse"}"#, .unprocessableContent, "invalid_email", "email"),
                (#"{"email":"a b@c.com","password":"correct horse"}"#, .unprocessableContent, "invalid_email", "email"),
                (#"{"email":"ada@example.com","password":"1234567"}"#, .unprocessableContent, "weak_password", "password"),
                (
                    #"{"email":"ada@example.com","password":"\#(String(repeating: "é", count: 37))"}"#,
                    .unprocessableContent, "password_too_long", "password"
                ),
                (#"{"email":"ada@example.com"}"#, .badRequest, "bad_request", "password"),
                (#"{"email":42,"password":"correct horse"}"#, .badRequest, "bad_request", "email"),
                (#"{"email":"ada@example.com","password":"#, .badRequest, "bad_request", nil),
                ("", .badRequest, "bad_request", nil),
            ]
            for (body, status, code, field) in cases {
                let response = try await client.call(.post, "/v1/auth/signup", json: body)
                #expect(response.status == status, "\(body)")
                #expect(response.error?.code == code, "\(body)")
                #expect(response.error?.field == field, "\(body)")
                #expect(response.error?.message.isEmpty == false)
            }
            let users = try await server.app.database.run { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM users").first(decodingColumn: "n", as: Int.self)
            }
            #expect(users == 0)
        }
    }

    @Test(arguments: Engine.available)
    func seventyTwoBytePasswordsAreAcceptedAndEightCharactersIsEnough(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            _ = try await client.signUp("long@example.com", String(repeating: "x", count: 72))
            #expect(try await client.logIn("long@example.com", String(repeating: "x", count: 72)).status == .ok)
            _ = try await client.signUp("short@example.com", "12345678")
        }
    }

    @Test(arguments: Engine.available)
    func anEmailCanOnlyBeRegisteredOnceWhateverItsCase(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            _ = try await client.signUp("ada@example.com")
            let again = try await client.call(
                .post, "/v1/auth/signup", json: #"{"email":" ADA@example.com","password":"another password"}"#)
            #expect(again.status == .conflict)
            #expect(again.error?.code == "email_taken")
            #expect(again.error?.field == "email")
            // The first password still works: the refused sign-up changed nothing.
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .ok)
        }
    }

    @Test(arguments: Engine.available)
    func loginAcceptsTheEmailInAnyCaseAndRefusesWrongCredentialsAlike(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let created = try await client.signUp("ada@example.com")
            let login = try await client.logIn(" ADA@Example.com ", "correct horse")
            #expect(login.status == .ok)
            let session = try login.decode(AuthSessionResponse.self)
            #expect(session.user == created.user)
            #expect(session.accessToken != created.accessToken)

            let wrongPassword = try await client.logIn("ada@example.com", "wrong password")
            let unknownEmail = try await client.logIn("nobody@example.com", "correct horse")
            #expect(wrongPassword.status == .unauthorized)
            #expect(unknownEmail.status == .unauthorized)
            #expect(wrongPassword.error?.code == "invalid_credentials")
            #expect(wrongPassword.error == unknownEmail.error)
        }
    }

    @Test(arguments: Engine.available)
    func moreThanFiveFailuresWithinFifteenMinutesAreThrottled(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            _ = try await client.signUp("ada@example.com")
            for _ in 0..<5 {
                #expect(try await client.logIn("ada@example.com", "wrong password").status == .unauthorized)
                server.clock.advance(by: 60)
            }
            let throttled = try await client.logIn("ada@example.com", "correct horse")
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.error?.code == "too_many_attempts")
            let retryAfter = try #require(throttled.headers[.retryAfter].flatMap(Int.init))
            // The oldest failure was 5 minutes ago, so it stops counting in 10 minutes.
            #expect((590...600).contains(retryAfter))
            // Another email is not affected.
            #expect(try await client.logIn("other@example.com", "whatever1").status == .unauthorized)

            server.clock.advance(by: TimeInterval(retryAfter))
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .ok)
        }
    }
}

extension Date {
    /// Storage keeps milliseconds.
    var roundedToMilliseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}

@Suite("Concurrent sign-ups")
struct ConcurrentSignUpTests {
    @Test(arguments: Engine.available)
    func racingSignUpsWithOneEmailCreateOneAccount(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await client.call(
                            .post, "/v1/auth/signup", json: #"{"email":"race@example.com","password":"password \#(index)"}"#
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 1)
            #expect(statuses.filter { $0 == .conflict }.count == 7)
            let users = try await server.app.database.run { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM users").first(decodingColumn: "n", as: Int.self)
            }
            #expect(users == 1)
        }
    }
}
