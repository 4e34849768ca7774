import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// The whole account life cycle as an app sees it: KithKit over real HTTP against a live server,
/// on every available storage engine.
@Suite("Account flow (KithKit against a live server)")
struct AccountFlowTests {
    @Test("sign up, restart, tokens, password change, sign out, reset, delete", arguments: Engine.available)
    func fullAccountFlow(engine: Engine) async throws {
        try await LiveServer.run(engine) { server in
            let home = try makeTemporaryDirectory("kith-e2e-home")
            defer { try? FileManager.default.removeItem(at: home) }
            let sessionFile = home.appendingPathComponent("device/session.json")
            let store = FileSessionStore(fileURL: sessionFile)
            let email = uniqueEmail("flow")
            let firstPassword = "correct horse battery"

            // Sign up: the session is kept on the device.
            let device = server.client(store: store)
            let user = try await device.signUp(email: "  \(email.uppercased()) ", password: firstPassword)
            #expect(user.email == email, "emails are trimmed and lower-cased")
            let saved = try #require(try store.load(), "signing up must store the session")
            #expect(saved.user == user)
            #expect(saved.serverURL == server.url)
            #expect(!saved.accessToken.isEmpty && !saved.refreshToken.isEmpty)
            #expect(saved.accessToken != saved.refreshToken)

            // An app restart: a new client over the same store is still signed in.
            let restarted = server.client(store: FileSessionStore(fileURL: sessionFile))
            #expect(try await restarted.storedSession()?.user == user)
            #expect(try await restarted.me() == user)

            // A second device, signed in before the password change.
            let otherDevice = server.client()
            #expect(try await otherDevice.signIn(email: email, password: firstPassword) == user)
            #expect(try await otherDevice.me() == user)

            // Personal access tokens: the secret is shown once, listed without it, revocable.
            let created = try await restarted.createPersonalToken(name: "  backup script ")
            let secret = try #require(created.token)
            #expect(secret.hasPrefix("kpt_"))
            #expect(created.name == "backup script")
            let listed = try await restarted.personalTokens()
            #expect(listed.map(\.id) == [created.id])
            #expect(listed.first?.token == nil, "a listed token never shows its secret again")
            // The token itself works as a bearer token.
            let viaToken = KithClient(
                serverURL: server.url,
                store: InMemorySessionStore(
                    StoredSession(
                        serverURL: server.url, user: user, accessToken: secret, refreshToken: "unused",
                        accessExpiresAt: Date().addingTimeInterval(3600))))
            #expect(try await viaToken.me() == user)
            try await restarted.revokePersonalToken(id: created.id)
            #expect(try await restarted.personalTokens().isEmpty)
            let revokedUse = await expectKithError { try await viaToken.me() }
            #expect(revokedUse == .sessionExpired, "a revoked personal token no longer signs requests")

            // Password change: this device stays signed in, the other one is signed out.
            let secondPassword = "a brand new secret"
            try await restarted.changePassword(current: firstPassword, new: secondPassword)
            #expect(try await restarted.me() == user)
            #expect(try store.load() != nil)
            let kicked = await expectKithError { try await otherDevice.me() }
            #expect(kicked == .sessionExpired)
            #expect(try await otherDevice.storedSession() == nil, "an ended session is forgotten on the device")
            let oldPassword = await expectKithError { try await server.client().signIn(email: email, password: firstPassword) }
            #expect(oldPassword?.code == .invalidCredentials)

            // Sign out: the device forgets the session.
            try await restarted.signOut()
            #expect(try store.load() == nil)
            #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
            let signedOut = await expectKithError { try await restarted.me() }
            #expect(signedOut == .notSignedIn)
            // The session ended on the server too: its old tokens are refused.
            let afterSignOut = await expectKithError {
                try await server.client(store: InMemorySessionStore(saved)).me()
            }
            #expect(afterSignOut == .sessionExpired)

            // Forgotten password: the mailed link carries a token that sets a new password.
            try await restarted.requestPasswordReset(email: email)
            let mail = try await server.outbox.waitForMail(to: email)
            let link = try #require(Outbox.resetLink(in: mail), "the reset mail has no link:\n\(mail)")
            #expect(link.absoluteString.hasPrefix("http://127.0.0.1:\(server.port)/reset-password?token="))
            let token = try #require(
                URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
            let thirdPassword = "reset via the mailed link"
            try await restarted.confirmPasswordReset(token: token, newPassword: thirdPassword)
            let stale = await expectKithError { try await restarted.signIn(email: email, password: secondPassword) }
            #expect(stale?.code == .invalidCredentials)
            #expect(stale?.userMessage == "The email or password is incorrect.")
            #expect(try await restarted.signIn(email: email, password: thirdPassword) == user)
            #expect(try store.load()?.user == user)
            // The link works once.
            let reused = await expectKithError {
                try await restarted.confirmPasswordReset(token: token, newPassword: "yet another password")
            }
            #expect(reused?.code == .invalidToken)

            // Deleting the account forgets the session and frees the email.
            try await restarted.deleteAccount(password: thirdPassword)
            #expect(try store.load() == nil)
            let gone = await expectKithError { try await restarted.signIn(email: email, password: thirdPassword) }
            #expect(gone?.code == .invalidCredentials)
            let again = try await restarted.signUp(email: email, password: "starting over again")
            #expect(again.email == email)
            #expect(again.id != user.id, "a new account, not the deleted one")
        }
    }

    @Test("signing up twice with one email is refused with the server's message, field email")
    func emailTaken() async throws {
        try await LiveServer.run { server in
            let email = uniqueEmail("taken")
            try await server.client().signUp(email: email, password: "first password")
            let store = InMemorySessionStore()
            let error = await expectKithError {
                try await server.client(store: store).signUp(email: email.uppercased(), password: "second password")
            }
            guard case .server(let status, let detail) = error else {
                Issue.record("expected a server error, got \(String(describing: error))")
                return
            }
            #expect(status == 409)
            #expect(detail.code == ErrorCode.emailTaken.rawValue)
            #expect(detail.field == "email")
            #expect(error?.userMessage == "An account with this email already exists. Sign in instead.")
            #expect(error?.isRetryable == false)
            #expect(try store.load() == nil)
        }
    }

    @Test("a wrong current password is reported as such and keeps the device signed in")
    func wrongCurrentPasswordKeepsSession() async throws {
        try await LiveServer.run { server in
            let store = InMemorySessionStore()
            let device = server.client(store: store)
            let user = try await device.signUp(email: uniqueEmail("typo"), password: "the real password")

            let error = await expectKithError { try await device.changePassword(current: "a typo", new: "new password 1") }
            #expect(error?.code == .invalidCredentials, "got \(String(describing: error))")
            #expect(error?.field == "currentPassword")
            #expect(try store.load() != nil, "mistyping the current password must not sign the person out")
            #expect(try await device.me() == user)
        }
    }

    @Test("a wrong password when deleting the account is reported as such and deletes nothing")
    func wrongPasswordOnDeleteKeepsSession() async throws {
        try await LiveServer.run { server in
            let store = InMemorySessionStore()
            let device = server.client(store: store)
            let email = uniqueEmail("keep")
            try await device.signUp(email: email, password: "the real password")

            let error = await expectKithError { try await device.deleteAccount(password: "a typo") }
            #expect(error?.code == .invalidCredentials, "got \(String(describing: error))")
            #expect(try store.load() != nil, "mistyping the password must not sign the person out")
            #expect(try await server.client().signIn(email: email, password: "the real password").email == email)
        }
    }

    @Test("signing out after the access token expired still ends the session on the server")
    func signOutWithExpiredAccessToken() async throws {
        try await LiveServer.run { server in
            // A device that comes back after two hours away (both clocks moved on).
            let offset = Locked(0.0)
            let store = InMemorySessionStore()
            let device = server.client(store: store, now: { Date().addingTimeInterval(offset.value) })
            try await device.signUp(email: uniqueEmail("later"), password: "some password")
            let kept = try #require(try store.load())

            offset.value = 2 * 3600
            server.clock.advance(by: 2 * 3600)
            try await device.signOut()
            #expect(try store.load() == nil)

            // Whoever holds a copy of the signed-out session's tokens must not get back in.
            let copy = server.client(store: InMemorySessionStore(kept), now: { Date().addingTimeInterval(2 * 3600) })
            let error = await expectKithError { try await copy.me() }
            #expect(error == .sessionExpired, "the refresh token of a signed-out session still works on the server")
        }
    }
}
