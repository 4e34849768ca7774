import Foundation
import KithCore
import KithKit
import Testing

/// AuthModel's state when things go wrong, with a scripted transport.
@Suite("AuthModel with a fake transport")
@MainActor
struct AuthModelUnitTests {
    @Test("an unreadable stored session starts signed out, with a storage error to show")
    func corruptStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kithkit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("session.json")
        try Data("garbage".utf8).write(to: file)
        let model = AuthModel(client: Fixture.client(.replaying(), store: FileSessionStore(fileURL: file)))

        await model.start()
        #expect(model.state == .signedOut)
        guard case .storage = model.lastError else {
            Issue.record("expected a storage error, got \(String(describing: model.lastError))")
            return
        }
    }

    @Test("signing in while offline: a retryable error, still signed out")
    func offlineSignIn() async throws {
        let model = AuthModel(client: Fixture.client(.replaying([.failure(.offline)]), store: InMemorySessionStore()))
        await model.start()
        await model.signIn(email: "ada@example.com", password: "pass word")
        #expect(model.state == .signedOut)
        #expect(model.lastError == .offline)
        #expect(model.lastError?.isRetryable == true)
    }

    @Test("a session the server refuses on refresh turns the model signed out")
    func refusedRefresh() async throws {
        let store = InMemorySessionStore(Fixture.session(expiresAt: Fixture.now.addingTimeInterval(-60)))
        let model = AuthModel(client: Fixture.client(.replaying(Fixture.error(401, .invalidToken)), store: store))
        await model.start()
        #expect(model.state == .signedIn(Fixture.user), "a stored session means signed in at launch, without a request")

        await model.changePassword(current: "old password", new: "new password")
        #expect(model.lastError == .sessionExpired)
        #expect(model.state == .signedOut)
        #expect(try store.load() == nil)
    }
}
