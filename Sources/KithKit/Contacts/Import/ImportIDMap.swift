import Foundation

/// Which object on the target server each copied object of the source became ("contact:42" is
/// now contact 1207), kept in a file a line per object, each line written as soon as its object
/// is made. An import stopped anywhere (a crash, a lost network, Ctrl-C) starts again from the
/// file and makes nothing twice; a line cut short by a crash is ignored (the write key of its
/// object makes the repeat a replay on the server).
public final class ImportIDMap: @unchecked Sendable {
    public let fileURL: URL
    private var ids: [String: Int] = [:]
    private let handle: FileHandle
    private let lock = NSLock()

    public init(fileURL: URL) throws {
        self.fileURL = fileURL
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !manager.fileExists(atPath: fileURL.path) {
                guard manager.createFile(atPath: fileURL.path, contents: nil, attributes: [.posixPermissions: 0o600])
                else { throw CocoaError(.fileWriteUnknown) }
            }
            let text = String(decoding: try Data(contentsOf: fileURL), as: UTF8.self)
            var complete = text.split(separator: "\n", omittingEmptySubsequences: true)
            if !text.hasSuffix("\n"), !complete.isEmpty { complete.removeLast() }
            for line in complete {
                let fields = line.split(separator: " ")
                if fields.count == 2, let id = Int(fields[1]) { ids[String(fields[0])] = id }
            }
            handle = try FileHandle(forWritingTo: fileURL)
            // A torn last line is finished with a line break so the next entry starts clean.
            let end = try handle.seekToEnd()
            if end > 0, !text.hasSuffix("\n") { try handle.write(contentsOf: Data("\n".utf8)) }
        } catch {
            throw MonicaClientError.storage("cannot use \(fileURL.path) (\(error.localizedDescription))")
        }
    }

    deinit { try? handle.close() }

    /// The target id of `key`, when it was copied.
    public subscript(key: String) -> Int? {
        lock.withLock { ids[key] }
    }

    public var count: Int { lock.withLock { ids.count } }

    /// Records that `key` became `id` on the target, on disk before this returns.
    public func record(_ key: String, _ id: Int) throws {
        precondition(!key.contains(" ") && !key.contains("\n"), "import keys are single words")
        try lock.withLock {
            do {
                try handle.write(contentsOf: Data("\(key) \(id)\n".utf8))
            } catch {
                throw MonicaClientError.storage("cannot write \(fileURL.path) (\(error.localizedDescription))")
            }
            ids[key] = id
        }
    }
}
