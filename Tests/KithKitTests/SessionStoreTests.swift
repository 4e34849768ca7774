import Foundation
import KithCore
import KithKit
import Testing

/// Where a device keeps its session between launches.
@Suite("Session stores")
struct SessionStoreTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kithkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func mode(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
    }

    @Test("a file store saves, loads and clears, creating its directory")
    func fileRoundTrip() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("profiles/laptop/session.json")
        let store = FileSessionStore(fileURL: file)

        #expect(try store.load() == nil, "no file yet: signed out, not an error")
        let session = Fixture.session()
        try store.save(session)
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(try store.load() == session)
        // Another store on the same file (the next launch) reads the same session.
        #expect(try FileSessionStore(fileURL: file).load() == session)

        var refreshed = session
        refreshed.accessToken = "kat_refreshed"
        try store.save(refreshed)
        #expect(try store.load() == refreshed)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(leftovers == ["session.json"], "no temporary files are left behind")

        try store.clear()
        #expect(try store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        try store.clear()  // clearing twice is fine
    }

    @Test("the session file is readable by its owner only, and so is the directory it creates")
    func filePermissions() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("new-dir/session.json")
        let store = FileSessionStore(fileURL: file)
        try store.save(Fixture.session())
        #expect(try mode(file) == 0o600)
        #expect(try mode(file.deletingLastPathComponent()) == 0o700)

        // A file someone made world-readable is tightened on the next save.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        try store.save(Fixture.session(access: "kat_2"))
        #expect(try mode(file) == 0o600)
    }

    @Test("the session file keeps dates and ids in the wire format")
    func fileFormat() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("session.json")
        try FileSessionStore(fileURL: file).save(Fixture.session())
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("\"accessExpiresAt\":\"2027-01-15T08:30:00.000Z\""), "\(text)")
        #expect(text.contains(Fixture.user.id.uuidString.lowercased()))
    }

    @Test("a corrupt session file is a storage error that names the file")
    func corruptFile() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("session.json")
        try Data("{ this is not a session".utf8).write(to: file)
        let store = FileSessionStore(fileURL: file)
        do {
            _ = try store.load()
            Issue.record("a corrupt file loaded")
        } catch let error as KithError {
            guard case .storage(let reason) = error else {
                Issue.record("expected .storage, got \(error)")
                return
            }
            #expect(reason.contains(file.path))
            #expect(error.userMessage.hasPrefix("Could not save on this device: "))
            #expect(error.isRetryable == false)
        }
        // Saving a good session repairs it.
        try store.save(Fixture.session())
        #expect(try store.load() == Fixture.session())
    }

    @Test("a file store that can't write reports a storage error")
    func unwritableLocation() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // A regular file where the directory should be.
        let blocker = root.appendingPathComponent("blocker")
        try Data("x".utf8).write(to: blocker)
        let store = FileSessionStore(fileURL: blocker.appendingPathComponent("session.json"))
        #expect {
            try store.save(Fixture.session())
        } throws: { error in
            guard case .storage = error as? KithError else { return false }
            return true
        }
    }

    @Test("the in-memory store keeps one session")
    func inMemory() throws {
        let empty = InMemorySessionStore()
        #expect(try empty.load() == nil)
        try empty.save(Fixture.session())
        #expect(try empty.load() == Fixture.session())
        try empty.save(Fixture.session(access: "kat_2"))
        #expect(try empty.load()?.accessToken == "kat_2")
        try empty.clear()
        #expect(try empty.load() == nil)

        let seeded = InMemorySessionStore(Fixture.session())
        #expect(try seeded.load() == Fixture.session())
    }
}
