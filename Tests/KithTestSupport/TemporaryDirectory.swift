import Foundation

/// A fresh, empty directory under the system's temporary directory, named `<prefix>-<uuid>` so
/// parallel tests never share one. The caller removes it.
public func makeTemporaryDirectory(_ prefix: String = "kith-test") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(UUID().uuidString.lowercased())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
