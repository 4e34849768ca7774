import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

@Suite("Passwords")
struct PasswordTests {
    @Test(arguments: Engine.available)
    func changingThePasswordEndsEveryOtherSession(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            let phone = try await client.signUp("ada@example.com")
            let laptop = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)

            let wrong = try await client.call(
                .post, "/v1/auth/password", body: ChangePasswordRequest(currentPassword: "nope nope", newPassword: "new password"),
                token: phone.accessToken)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.error?.field == "currentPassword")
            let weak = try await client.call(
                .post, "/v1/auth/password", body: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "short"),
                token: phone.accessToken)
            #expect(weak.status == .unprocessableContent)
            #expect(weak.error?.code == "weak_password")
            #expect(weak.error?.field == "newPassword")
            #expect(try await client.call(.get, "/v1/me", token: laptop.accessToken).status == .ok)

            let changed = try await client.call(
                .post, "/v1/auth/password",
                body: ChangePasswordRequest(currentPassword: "correct horse", newPassword: "battery staple"),
                token: phone.accessToken)
            #expect(changed.status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: phone.accessToken).status == .ok)
            #expect(try await client.call(.get, "/v1/me", token: laptop.accessToken).status == .unauthorized)
            let laptopRefresh = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: laptop.refreshToken))
            #expect(laptopRefresh.status == .unauthorized)
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .unauthorized)
            #expect(try await client.logIn("ada@example.com", "battery staple").status == .ok)
        }
    }

    @Test(arguments: Engine.available)
    func resetThroughTheMailedLink(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let outbox = Outbox(dataDirectory: server.config.dataDirectory)
            let session = try await client.signUp("ada@example.com")

            let unknown = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"nobody@example.com"}"#)
            #expect(unknown.status == .accepted)
            let known = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":" ADA@example.com"}"#)
            #expect(known.status == .accepted)
            let mails = try await outbox.waitForMails(1)
            try await server.app.jobsCaughtUp()
            #expect(outbox.mails.count == 1, "no mail for an unknown email")
            let mail = mails[0]
            #expect(mail.contains("To: ada@example.com"))
            #expect(mail.contains("https://kith.example/reset-password?token="))
            let token = try #require(Outbox.resetToken(in: mail))

            let confirm = try await client.call(
                .post, "/v1/auth/password-reset/confirm", body: PasswordResetConfirmRequest(token: token, newPassword: "fresh password"))
            #expect(confirm.status == .noContent)
            #expect(try await client.call(.get, "/v1/me", token: session.accessToken).status == .unauthorized)
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .unauthorized)
            #expect(try await client.logIn("ada@example.com", "fresh password").status == .ok)

            let again = try await client.call(
                .post, "/v1/auth/password-reset/confirm", body: PasswordResetConfirmRequest(token: token, newPassword: "third password"))
            #expect(again.status == .badRequest)
            #expect(again.error?.code == "invalid_token")
            #expect(try await client.logIn("ada@example.com", "fresh password").status == .ok)
        }
    }

    @Test(arguments: Engine.available)
    func resetMailsAreSpacedAndLinksExpire(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let outbox = Outbox(dataDirectory: server.config.dataDirectory)
            _ = try await client.signUp("ada@example.com")
            let request = #"{"email":"ada@example.com"}"#
            #expect(try await client.call(.post, "/v1/auth/password-reset", json: request).status == .accepted)
            _ = try await outbox.waitForMails(1)
            server.clock.advance(by: 119)
            #expect(try await client.call(.post, "/v1/auth/password-reset", json: request).status == .accepted)
            try await server.app.jobsCaughtUp()
            #expect(outbox.mails.count == 1, "a second mail within 2 minutes is not sent")
            server.clock.advance(by: 2)
            #expect(try await client.call(.post, "/v1/auth/password-reset", json: request).status == .accepted)
            let mails = try await outbox.waitForMails(2)
            let firstToken = try #require(Outbox.resetToken(in: mails[0]))
            let secondToken = try #require(Outbox.resetToken(in: mails[1]))
            #expect(firstToken != secondToken)

            // 30 minutes after the first mail, its link is dead; the second still has a minute or two.
            server.clock.advance(by: 30 * 60 - 121)
            let expired = try await client.call(
                .post, "/v1/auth/password-reset/confirm", body: PasswordResetConfirmRequest(token: firstToken, newPassword: "new password"))
            #expect(expired.status == .badRequest)
            #expect(expired.error?.code == "token_expired")
            let weak = try await client.call(
                .post, "/v1/auth/password-reset/confirm", body: PasswordResetConfirmRequest(token: secondToken, newPassword: "short"))
            #expect(weak.error?.code == "weak_password")
            let fine = try await client.call(
                .post, "/v1/auth/password-reset/confirm", body: PasswordResetConfirmRequest(token: secondToken, newPassword: "new password"))
            #expect(fine.status == .noContent)

            let bad = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"nope"}"#)
            #expect(bad.status == .unprocessableContent)
            #expect(bad.error?.code == "invalid_email")
        }
    }
}
