import Foundation
import Logging
import Synchronization

/// The server's log lines, on standard error in swift-log's `StreamLogHandler` format
/// (`2026-11-27T10:42:54+0000 info kith: key=value [Module] message`). It differs in one way:
/// metadata is turned into text when a line is written, not when it is set. Hummingbird sets a
/// request id on every request's logger, and `StreamLogHandler` formatted it then, for lines
/// that are almost never written: 2-3 % of a small request's CPU.
struct KithLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider
    /// Where each whole line goes: standard error, or a test's collector.
    let write: @Sendable (String) -> Void

    init(label: String, write: @escaping @Sendable (String) -> Void = Self.standardError) {
        self.label = label
        self.write = write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, provided in provided } }
        if let explicit = event.metadata { merged.merge(explicit) { _, explicit in explicit } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        let pretty = merged.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line =
            "\(Self.timestamp()) \(event.level)\(label.isEmpty ? "" : " ")\(label):\(pretty) [\(event.source)] \(event.message)\n"
        write(line)
    }

    /// Lines of several threads are written whole, one at a time.
    static let standardError: @Sendable (String) -> Void = { line in
        output.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    private static let output = Mutex(())

    /// Local time with its offset, as `StreamLogHandler` writes it.
    static func timestamp() -> String {
        var now = time(nil)
        var local = tm()
        guard localtime_r(&now, &local) != nil else { return "<unknown>" }
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
