import Foundation

/// Reads the mails a test server wrote to `<data>/outbox/` (mail without SMTP).
struct Outbox {
    let directory: URL

    init(dataDirectory: String) {
        directory = URL(fileURLWithPath: dataDirectory).appendingPathComponent("outbox")
    }

    var mails: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".eml") }.sorted().compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }
    }

    /// Waits for the `count`-th mail: delivery runs in the background after the request answered.
    func waitForMails(_ count: Int, timeout: Duration = .seconds(5)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let current = mails
            if current.count >= count { return current }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("expected \(count) mail(s) in \(directory.path), found \(mails.count)")
    }

    /// Waits long enough that a mail which was going to be written would be.
    func settledCount() async throws -> Int {
        try await Task.sleep(for: .milliseconds(300))
        return mails.count
    }

    static func resetToken(in mail: String) -> String? {
        guard let range = mail.range(of: "/reset-password?token=") else { return nil }
        return String(mail[range.upperBound...].prefix { !$0.isWhitespace })
    }
}
