import Foundation
import Logging

/// SMTP when `KITH_SMTP_URL` is set, otherwise the outbox folder.
func makeMailer(_ config: ServerConfig, logger: Logger) throws -> any Mailer {
    guard let smtpURL = config.smtpURL else {
        return OutboxMailer(directory: config.outboxDirectory, logger: logger, clock: config.clock, ids: config.ids)
    }
    do {
        // Introduce ourselves by the name people reach us at, which is what mail servers expect.
        let heloName = config.publicURL.flatMap { URL(string: $0)?.host } ?? "localhost"
        return SMTPMailer(
            configuration: try SMTPConfiguration.parse(url: smtpURL), heloName: heloName, logger: logger,
            clock: config.clock, ids: config.ids)
    } catch {
        throw ConfigError("KITH_SMTP_URL is not usable: \(error)")
    }
}
