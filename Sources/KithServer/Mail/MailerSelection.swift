import Foundation
import Logging

func makeMailer(_ config: ServerConfig, logger: Logger) throws -> any Mailer {
    guard config.smtpURL == nil else { throw ConfigError("TEMP: SMTP pending") }
    return OutboxMailer(directory: config.outboxDirectory, logger: logger, clock: config.clock)
}
