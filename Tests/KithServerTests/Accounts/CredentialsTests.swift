import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// What ends which credential, and how sign-in throttling stops guessers without locking the
/// owner out (docs/accounts.md).
@Suite("Credentials: what a reset or a password change ends; throttling")
struct CredentialsTests {
    /// Every kind of credential an account can have, each with a request that proves it works.
    struct Credentials {
        let phone: AuthSessionResponse
        let laptop: AuthSessionResponse
        let script: String
        let monicaApp: String
    }

    static func credentials(_ client: any TestClientProtocol) async throws -> Credentials {
        let phone = try await client.signUp("ada@example.com")
        let laptop = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
        let made = try await client.call(.post, "/v1/tokens", body: CreateTokenRequest(name: "backup script"), token: phone.accessToken)
        let script = try #require(try made.decode(PersonalTokenDTO.self).token)
        let signIn = try await client.call(.post, "/oauth/login", json: #"{"email":"ada@example.com","password":"correct horse"}"#)
        #expect(signIn.status == .ok, "\(signIn.text)")
        let monicaApp = try #require(JSONTree.parse(Data(buffer: signIn.body))?["access_token"]?.stringValue)
        return Credentials(phone: phone, laptop: laptop, script: script, monicaApp: monicaApp)
    }

    static func works(_ client: any TestClientProtocol, _ token: String) async throws -> Bool {
        let path = token.hasPrefix("kpt_") ? "/api/me" : "/v1/me"
        return try await client.call(.get, path, token: token).status == .ok
    }

    @Test(arguments: Engine.available)
    func aResetEndsEveryCredential(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let outbox = Outbox(dataDirectory: server.config.dataDirectory)
            let held = try await Self.credentials(client)
            for token in [held.phone.accessToken, held.laptop.accessToken, held.script, held.monicaApp] {
                #expect(try await Self.works(client, token))
            }
            _ = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"ada@example.com"}"#)
            let token = try #require(Outbox.resetToken(in: try await outbox.waitForMails(1)[0]))
            let confirm = try await client.call(
                .post, "/v1/auth/password-reset/confirm", body: PasswordResetConfirmRequest(token: token, newPassword: "taken back"))
            #expect(confirm.status == .noContent)

            for token in [held.phone.accessToken, held.laptop.accessToken, held.script, held.monicaApp] {
                #expect(try await !Self.works(client, token), "\(token.prefix(4)) still works after the reset")
            }
            let refresh = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: held.phone.refreshToken))
            #expect(refresh.status == .unauthorized)
            let owner = try await client.logIn("ada@example.com", "taken back").decode(AuthSessionResponse.self)
            let tokens = try await client.call(.get, "/v1/tokens", token: owner.accessToken).decode(PersonalTokenList.self)
            #expect(tokens.tokens.isEmpty, "the personal tokens are gone, not only refused")
        }
    }

    @Test(arguments: Engine.available)
    func aPasswordChangeEndsOtherSessionsAndAppSignInsButKeepsScriptTokens(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let held = try await Self.credentials(client)
            let listed = try await client.call(.get, "/v1/tokens", token: held.phone.accessToken).decode(PersonalTokenList.self)
            #expect(Set(listed.tokens.map(\.name)) == ["backup script", "Monica app sign-in"])
            #expect(listed.tokens.first { $0.name == "Monica app sign-in" }?.expiresAt != nil, "an app sign-in expires")
            #expect(listed.tokens.first { $0.name == "backup script" }?.expiresAt == nil)

            let changed = try await client.call(
                .post, "/v1/auth/password", body: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "new password"),
                token: held.phone.accessToken)
            #expect(changed.status == .noContent)
            #expect(try await Self.works(client, held.phone.accessToken), "the session that changed it stays")
            #expect(try await Self.works(client, held.script), "a token made for a script stays")
            #expect(try await !Self.works(client, held.laptop.accessToken))
            #expect(try await !Self.works(client, held.monicaApp), "an app that signed in with the old password must sign in again")
        }
    }

    /// One client address spraying a password over many emails is stopped, whatever the emails.
    @Test(arguments: Engine.available)
    func failuresFromOneClientAreCountedAcrossEmails(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            _ = try await client.signUp("ada@example.com")
            let limit = server.config.accounts.clientFailureLimit
            for index in 0..<limit {
                let email = index % 2 == 0 ? "user\(index)@example.com" : "not an email \(index)"
                #expect(try await client.logIn(email, "Password1").status == .unauthorized)
            }
            let blocked = try await client.logIn("ada@example.com", "correct horse")
            #expect(blocked.status == .tooManyRequests, "\(blocked.text)")
            #expect(blocked.error?.code == "too_many_attempts")
            #expect(blocked.headers[.retryAfter] != nil)
            server.clock.advance(by: server.config.accounts.loginFailureWindow + 1)
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .ok)
        }
    }

    /// Five failures lock an email for new devices only: the owner's device, known from an
    /// earlier sign-in, still gets in; a reset makes that device unknown again.
    @Test(arguments: Engine.available)
    func aDeviceThatSignedInBeforeIsNotLockedOut(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let outbox = Outbox(dataDirectory: server.config.dataDirectory)
            let signedUp = try await client.signUp("ada@example.com")
            let device = try #require(signedUp.deviceToken)
            #expect(device.hasPrefix("kdv_"))
            _ = try await client.signUp("bob@example.com")
            let bobs = try #require(
                try await client.logIn("bob@example.com", "correct horse").decode(AuthSessionResponse.self).deviceToken)

            func logIn(_ password: String, device: String?) async throws -> TestResponse {
                try await client.call(
                    .post, "/v1/auth/login",
                    body: CredentialsRequest(email: "ada@example.com", password: password, deviceToken: device))
            }
            for _ in 0..<server.config.accounts.loginFailureLimit {
                #expect(try await logIn("a guess", device: nil).status == .unauthorized)
            }
            #expect(try await logIn("correct horse", device: nil).status == .tooManyRequests)
            #expect(try await logIn("correct horse", device: bobs).status == .tooManyRequests, "another account's device")
            #expect(try await logIn("correct horse", device: "kdv_made-up").status == .tooManyRequests)
            let owner = try await logIn("correct horse", device: device)
            #expect(owner.status == .ok, "\(owner.text)")
            #expect(try owner.decode(AuthSessionResponse.self).deviceToken == device, "the same device keeps its token")

            // The reset path always works, and forgets the devices.
            for _ in 0..<server.config.accounts.loginFailureLimit {
                _ = try await logIn("a guess", device: nil)
            }
            _ = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"ada@example.com"}"#)
            let token = try #require(Outbox.resetToken(in: try await outbox.waitForMails(1)[0]))
            #expect(
                try await client.call(
                    .post, "/v1/auth/password-reset/confirm",
                    body: PasswordResetConfirmRequest(token: token, newPassword: "taken back")
                ).status == .noContent)
            #expect(try await logIn("taken back", device: nil).status == .ok, "a reset clears the email's failures")
            for _ in 0..<server.config.accounts.loginFailureLimit {
                _ = try await logIn("a guess", device: nil)
            }
            #expect(try await logIn("taken back", device: device).status == .tooManyRequests, "the reset forgot the device")
        }
    }

    /// A browser that signed in before carries a `kith_device` cookie that lets it through a lock.
    @Test(arguments: Engine.available)
    func aBrowserThatSignedInBeforeIsNotLockedOut(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var owner = WebSessionTests.Browser()
            _ = try await owner.get(client, "/signup")
            #expect(
                try await owner.post(client, "/signup", form: ["email": "ada@example.com", "password": "correct horse"])
                    .status == .found)
            #expect(owner.cookies[AccountPages.deviceCookie]?.hasPrefix("kdv_") == true)
            _ = try await owner.post(client, "/signout", form: [:])
            #expect(owner.cookies[AccountPages.deviceCookie] != nil, "signing out keeps the device cookie")

            var stranger = WebSessionTests.Browser()
            _ = try await stranger.get(client, "/signin")
            for _ in 0..<server.config.accounts.loginFailureLimit {
                _ = try await stranger.post(client, "/signin", form: ["email": "ada@example.com", "password": "a guess"])
            }
            let locked = try await stranger.post(client, "/signin", form: ["email": "ada@example.com", "password": "correct horse"])
            #expect(locked.status == .tooManyRequests)
            let back = try await owner.post(client, "/signin", form: ["email": "ada@example.com", "password": "correct horse"])
            #expect(back.status == .found, "\(back.text.prefix(300))")
            #expect(back.headers[.location] == "/")
        }
    }
}
