import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The password reset mail is a job (`mail.password-reset`): while the mail server is down it is
/// tried again later and later, and the mail that finally goes out has a working link. No reset
/// token is ever stored in the jobs table.
@Suite("Password reset mail job")
struct PasswordResetMailJobTests {
    @Test(arguments: Engine.available)
    func theMailIsRetriedUntilTheMailServerComesUp(engine: Engine) async throws {
        let port = try closedLoopbackPort()
        try await TestServer.withRouter(
            engine,
            configure: { config in
                JobTesting.configure([])(&config)
                config.smtpURL = "smtp://127.0.0.1:\(port)"
                config.mailFrom = "accounts@kith.example"
            }
        ) { server, client in
            _ = try await client.signUp("ada@example.com")
            let requested = try await client.call(
                .post, "/v1/auth/password-reset", json: #"{"email":"ada@example.com"}"#)
            #expect(requested.status == .accepted)
            let jobs = JobTesting.repository(server)
            @Sendable func resetJob() async throws -> StoredJob {
                try #require(try await jobs.jobs(kind: PasswordResetMailJob.kind).first)
            }

            // Nobody listens on the port: 30 s, then 60 s, then 120 s.
            for (attempt, delay) in [(1, 30), (2, 60), (3, 120)] {
                try await eventually {
                    let job = try await resetJob()
                    return job.attempts == attempt && job.status == .pending
                }
                let job = try await resetJob()
                #expect(job.runAt == server.clock.now.epochMillis + Int64(delay) * 1000, "after attempt \(attempt)")
                #expect(job.lastError != nil)
                #expect(!job.payload.contains("kpr_"), "no reset token waits in the table")
                if attempt < 3 { server.clock.advance(by: TimeInterval(delay)) }
            }
            #expect(try await jobs.jobs(kind: PasswordResetMailJob.kind).count == 1)

            // The mail server comes up; the next try delivers.
            let sink = try await SMTPSink.start(port: port)
            defer { sink.stop() }
            server.clock.advance(by: 120)
            try await eventually { try await resetJob().status == .done }
            let job = try await resetJob()
            #expect(job.attempts == 4)
            #expect(!job.payload.contains("kpr_"))
            let deliveries = try sink.deliveries()
            try #require(deliveries.count == 1)
            #expect(deliveries[0].meta.rcptTos == ["ada@example.com"])

            // The link made by the successful try works, for its full lifetime from the sending.
            server.clock.advance(by: 29 * 60)
            let token = try #require(Outbox.resetToken(in: deliveries[0].eml))
            let confirmed = try await client.call(
                .post, "/v1/auth/password-reset/confirm",
                body: PasswordResetConfirmRequest(token: token, newPassword: "after the outage"))
            #expect(confirmed.status == .noContent)
            #expect(try await client.logIn("ada@example.com", "after the outage").status == .ok)
        }
    }

    @Test(arguments: Engine.available)
    func aResetAskedForAgainSoonMakesNoSecondJob(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: JobTesting.configure([])) { server, client in
            _ = try await client.signUp("ada@example.com")
            let request = #"{"email":"ada@example.com"}"#
            #expect(try await client.call(.post, "/v1/auth/password-reset", json: request).status == .accepted)
            server.clock.advance(by: 60)
            #expect(try await client.call(.post, "/v1/auth/password-reset", json: request).status == .accepted)
            let jobs = try await JobTesting.repository(server).jobs(kind: PasswordResetMailJob.kind)
            #expect(jobs.count == 1)
            #expect(jobs.first?.payload.contains("kpr_") == false)
            _ = try await Outbox(dataDirectory: server.config.dataDirectory).waitForMails(1)
        }
    }
}
