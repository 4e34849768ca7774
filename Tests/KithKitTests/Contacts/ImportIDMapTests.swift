import Foundation
import KithTestSupport
import Testing

@testable import KithKit

/// What an import keeps between runs: the map of copied objects, and the write keys it sends.
@Suite("Import: the id map and write keys")
struct ImportIDMapTests {
    @Test("each line is kept as it is written; a line a crash cut short is dropped, and the next starts clean")
    func aTornLineIsDropped() throws {
        let directory = try makeTemporaryDirectory("kith-import-map")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("import.ids")
        do {
            let map = try ImportIDMap(fileURL: file)
            try map.record("contact:42", 1207)
            try map.record("note:7", 31)
        }
        // A crash in the middle of the third line.
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("address:11 9".utf8))
        try handle.close()

        let reopened = try ImportIDMap(fileURL: file)
        #expect(reopened["contact:42"] == 1207)
        #expect(reopened["note:7"] == 31)
        #expect(reopened["address:11"] == nil, "a cut line may name the wrong id: its object is sent again")
        #expect(reopened.count == 2)
        try reopened.record("address:11", 90)
        let again = try ImportIDMap(fileURL: file)
        #expect(again["address:11"] == 90)
        #expect(again.count == 3)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "ids of someone's contacts")
    }

    @Test("write keys fit the server's 128 characters, however long the source's name")
    func writeKeysFit() async throws {
        let host = String(repeating: "a", count: 63) + "." + String(repeating: "b", count: 63) + ".example.com"
        let source = MonicaClient(server: try MonicaServerAddress("https://\(host):8443"), token: "t")
        let target = MonicaClient(server: try MonicaServerAddress("https://kith.example.com"), token: "t")
        let directory = try makeTemporaryDirectory("kith-import-keys")
        defer { try? FileManager.default.removeItem(at: directory) }
        let importer = MonicaImport(
            from: source, sourceUserID: Int.max, into: target,
            ids: try ImportIDMap(fileURL: directory.appendingPathComponent("map.ids")))
        let longest = await importer.keyPrefix + "giftphoto:\(Int.max):\(Int.max)"
        #expect(longest.count <= 128, "\(longest.count): \(longest)")
        #expect(longest.allSatisfy { $0.isASCII && !$0.isWhitespace })
    }
}
