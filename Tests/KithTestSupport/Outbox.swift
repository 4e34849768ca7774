import Foundation

/// Reads the mails a server without SMTP wrote to `<data>/outbox/`, one `.eml` file each. Delivery
/// runs in the background after the request answered, hence the waiting methods. A mail is proven
/// not sent by waiting for the job runner to catch up (`jobsCaughtUp()` in KithServerTests), which
/// sends every mail due, and then reading `mails`.
public struct Outbox: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// The outbox of the server whose `ServerConfig.dataDirectory` is `dataDirectory`.
    public init(dataDirectory: String) {
        self.init(directory: URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox"))
    }

    /// Every mail so far, oldest first.
    public var mails: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }
    }

    /// Waits for the `count`-th mail and returns all mails.
    public func waitForMails(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [String] {
        if let found = try await poll(timeout, { mails.count >= count ? mails : nil }) { return found }
        throw TestFailure("expected \(count) mail(s) in \(directory.path) within \(timeout), found \(mails.count)")
    }

    /// Waits for a mail to `recipient` and returns the latest one.
    public func waitForMail(to recipient: String, timeout: Duration = .seconds(20)) async throws -> String {
        if let found = try await poll(timeout, { mails.last { $0.contains("To: \(recipient)") } }) { return found }
        throw TestFailure(
            "no mail to \(recipient) appeared in \(directory.path) within \(timeout); found \(mails.count)")
    }

    /// The token of the password reset link in a mail.
    public static func resetToken(in mail: String) -> String? {
        guard let range = mail.range(of: "/reset-password?token=") else { return nil }
        return String(mail[range.upperBound...].prefix { !$0.isWhitespace })
    }

    /// The whole password reset link in a mail, e.g. `http://127.0.0.1:PORT/reset-password?token=...`.
    public static func resetLink(in mail: String) -> URL? {
        guard let start = mail.range(of: "http") else { return nil }
        let link = mail[start.lowerBound...].prefix { !$0.isWhitespace }
        guard link.contains("/reset-password?token=") else { return nil }
        return URL(string: String(link))
    }

    /// Checks `found` every 20 ms until it returns a value or `timeout` passes (then nil).
    private func poll<T>(_ timeout: Duration, _ found: () -> T?) async throws -> T? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let value = found() { return value }
            try await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }
}
