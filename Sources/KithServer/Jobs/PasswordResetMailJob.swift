import Foundation
import Logging

/// Sends the password reset mail (`AccountService.requestPasswordReset` enqueues it), retried with
/// backoff while the mail server is unreachable.
///
/// The job makes the reset token itself, when it sends: the jobs table holds only the account's id,
/// never a secret, whatever happens to the mail (a stuck retry, a backup of the database). Each
/// attempt makes a new link, so the one that arrives is valid for its full lifetime however late the
/// mail server came back; a link whose mail failed was never seen by anyone and simply expires.
/// Repeating a run sends another valid link at worst.
struct PasswordResetMailJob: JobHandler {
    static let kind = "mail.password-reset"

    struct Payload: Codable, Sendable {
        var userID: String
    }

    let accounts: AccountRepository
    let mailer: any Mailer
    let settings: AccountSettings
    let clock: Clock
    let publicURL: @Sendable () -> String
    let mailFrom: String

    var kind: String { Self.kind }
    /// About two hours of tries (30 s doubling to 30 min): a mail server down for longer than that
    /// is an outage; the person can ask again.
    static let retryPolicy = JobRetryPolicy(maxAttempts: 10, firstDelay: .seconds(30), maximumDelay: .seconds(1800))
    var retry: JobRetryPolicy { Self.retryPolicy }

    /// The job for one request; the key is unique per account and request time.
    static func job(userID: String, requestedAt: Int64) throws -> NewJob {
        try NewJob(
            kind: kind, key: keyPrefix(userID: userID) + String(requestedAt), payload: Payload(userID: userID),
            runAt: requestedAt, retry: retryPolicy)
    }

    /// The start of every key of an account's reset mails (its throttle looks them up).
    static func keyPrefix(userID: String) -> String { "\(kind) \(userID) " }

    func run(_ job: Job) async throws {
        let payload = try job.payload(as: Payload.self)
        // The account was deleted since: there is nobody to write to.
        guard let user = try await accounts.user(id: payload.userID) else { return }
        let token = Tokens.generate(.passwordReset)
        let now = clock.nowMillis
        try await accounts.createPasswordReset(
            tokenHash: Tokens.hash(token), userID: user.id, now: now,
            expiresAt: now + Int64(settings.passwordResetLifetime * 1000))
        try await mailer.send(message(to: user.email, token: token))
    }

    private func message(to email: String, token: String) -> MailMessage {
        let link = "\(publicURL())/reset-password?token=\(token)"
        let minutes = Int(settings.passwordResetLifetime / 60)
        return MailMessage(
            from: mailFrom, to: email, subject: "Reset your Kith password",
            textBody: """
                Someone asked to reset the password of your Kith account (\(email)).

                To choose a new password, open this link within \(minutes) minutes:

                \(link)

                The link works once. If you did not ask for this, ignore this mail: your password stays as it is.
                """)
    }
}
