import Logging

/// Hummingbird logs "Error handling upgrade result" at error level whenever a connection closes
/// before its first request was read, which is what `HTTPRequestGuard` and the deadlines do to
/// bad or silent clients: one error line per hostile connection would let anyone flood the log.
/// This handler turns that one message into a debug line and passes everything else on.
struct QuietUpgradeFailures: LogHandler {
    var base: any LogHandler

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { base.metadataProvider }
        set { base.metadataProvider = newValue }
    }

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        if event.level == .error && event.message.description == "Error handling upgrade result" {
            guard logLevel <= .debug else { return }
            event.level = .debug
        }
        base.log(event: event)
    }

    static func wrapping(_ logger: Logger) -> Logger {
        var quiet = logger
        quiet.handler = QuietUpgradeFailures(base: logger.handler)
        return quiet
    }
}
