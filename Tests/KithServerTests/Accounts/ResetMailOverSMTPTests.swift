import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

@Suite("Password reset mail over SMTP")
struct ResetMailOverSMTPTests {
    /// With `KITH_SMTP_URL` set, the reset link goes through a real SMTP server (with AUTH) instead
    /// of the outbox, and works.
    @Test func theResetLinkArrivesThroughSMTP() async throws {
        let sink = try await SMTPSink.start(user: "kith", password: "s3cret pass")
        defer { sink.stop() }
        try await TestServer.withRouter(.sqlite, configure: { config in
            config.smtpURL = "smtp://kith:s3cret%20pass@127.0.0.1:\(sink.port)"
            config.mailFrom = "accounts@kith.example"
        }) { server, client in
            _ = try await client.signUp("ada@example.com")
            #expect(try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"ada@example.com"}"#).status == .accepted)

            var deliveries: [SMTPDelivery] = []
            for _ in 0..<250 where deliveries.isEmpty {
                try await Task.sleep(for: .milliseconds(20))
                deliveries = try sink.deliveries()
            }
            let mail = try #require(deliveries.first)
            #expect(mail.meta.rcptTos == ["ada@example.com"])
            #expect(mail.meta.mailFrom == "accounts@kith.example")
            #expect(mail.meta.authenticatedUser == "kith")
            #expect(Outbox(dataDirectory: server.config.dataDirectory).mails.isEmpty, "nothing went to the outbox")

            let token = try #require(Outbox.resetToken(in: mail.eml))
            let confirmed = try await client.call(
                .post, "/v1/auth/password-reset/confirm", body: PasswordResetConfirmRequest(token: token, newPassword: "via smtp now"))
            #expect(confirmed.status == .noContent)
            #expect(try await client.logIn("ada@example.com", "via smtp now").status == .ok)
        }
    }

    @Test func anUnusableSMTPURLStopsTheServerFromStarting() async throws {
        await #expect(throws: ConfigError.self) {
            _ = try await TestServer.make(.sqlite) { $0.smtpURL = "ftp://mail.example" }
        }
    }
}
