import Foundation
import Logging

/// Without an SMTP server, mail is written as `.eml` files under `<data>/outbox/` and logged, so the
/// embedded default works on a laptop and a person can still open the reset link.
public struct OutboxMailer: Mailer {
    public let directory: URL
    let logger: Logger
    let clock: Clock
    let ids: IdentifierSource

    public init(directory: URL, logger: Logger, clock: Clock = .system, ids: IdentifierSource = .system) {
        self.directory = directory
        self.logger = logger
        self.clock = clock
        self.ids = ids
    }

    public func send(_ message: MailMessage) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let now = clock.now()
        let id = ids.text()
        let name = "\(now.epochMillis)-\(id).eml"
        let file = directory.appendingPathComponent(name)
        let text = message.rendered(date: now, messageID: "\(id)@kith.local")
        try Data(text.utf8).write(to: file, options: .atomic)
        logger.info(
            "mail written to outbox (no SMTP configured)",
            metadata: ["to": "\(message.to)", "subject": "\(message.subject)", "file": "\(file.path)"])
    }
}
