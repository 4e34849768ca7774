import Foundation
import Logging
import Synchronization
import Testing

@testable import KithServer

/// The server's log lines read as swift-log's own `StreamLogHandler` writes them, though the
/// metadata is turned into text only when a line is written.
@Suite("Log lines")
struct KithLogHandlerTests {
    /// Collects written lines.
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func write(_ string: String) { lines.withLock { $0.append(string) } }
    }

    @Test func linesReadAsStreamLogHandlerWritesThem() {
        let ours = Lines()
        let theirs = Lines()
        for var logger in [
            Logger(label: "kith") { KithLogHandler(label: $0, write: { ours.write($0) }) },
            Logger(label: "kith") { StreamLogHandler(label: $0, stream: theirs, metadataProvider: nil) },
        ] {
            logger[metadataKey: "hb.request.id"] = "42"
            logger[metadataKey: "a"] = ["x", "y"]
            logger.debug("not at this level")
            logger.info("plain")
            logger.warning("with more", metadata: ["z": "last", "a": "replaced"])
            logger.error("an error", error: CocoaError(.fileNoSuchFile))
        }
        // The same lines after the time stamp (both write the current second).
        #expect(ours.all.count == 3, "\(ours.all)")
        #expect(ours.all.map { $0.drop { $0 != " " } } == theirs.all.map { $0.drop { $0 != " " } })
        #expect(ours.all.first?.hasSuffix(" info kith: a=[\"x\", \"y\"] hb.request.id=42 [KithServerTests] plain\n") == true, "\(ours.all)")
        let stamp = String(ours.all.first?.prefix(while: { $0 != " " }) ?? "")
        #expect(stamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4}/) != nil, "\(stamp)")
    }
}
