import Foundation
import KithCore
import KithKit

/// What every command of a synced app works with: the profile's local store (the signed-in
/// account's, else the anonymous one) and, when signed in, a sync engine, so a command sees other
/// devices' changes and sends its own, yet works with no server at all.
@MainActor
struct DeviceSession {
    let store: LocalStore
    let engine: SyncEngine?
    /// The signed-in account's client; nil when nobody is signed in.
    let client: KithClient?
    let output: Output

    init(_ profile: Profile, output: Output) async throws {
        let client = try profile.client()
        if let session = try await client.storedSession() {
            store = try profile.storeDirectory.store(forUser: session.user.id)
            engine = SyncEngine(store: store, service: client)
            self.client = client
        } else {
            store = try profile.storeDirectory.anonymousStore()
            engine = nil
            self.client = nil
        }
        self.output = output
    }

    /// Syncs if the server answers; offline (or signed out) the change simply waits in the outbox.
    func syncIfReachable() async {
        guard let engine else { return }
        do {
            try await engine.sync()
        } catch let error as any UserFacingError where error.kind == .unreachable {
            if !output.json { note("Offline: changes are kept on this device and sent on the next sync.") }
        } catch let error as any UserFacingError {
            note("Not synced: \(error.userMessage)")
        } catch {
            note("Not synced: \(error)")
        }
    }

    func note(_ line: String) { output.note(line) }

    /// The one live record of `entity` among `records` whose id is `text` or starts with it.
    static func record(_ text: String, among records: [LocalRecord], kind: String) throws -> LocalRecord {
        let prefix = text.lowercased()
        let matches = records.filter { $0.id.lowercased.hasPrefix(prefix) }
        guard !prefix.isEmpty, let match = matches.first else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No \(kind) with id \(text)."))
        }
        guard matches.count == 1 else {
            throw KithError.invalid(
                APIErrorDetail(.ambiguousID, "\(matches.count) \(kind)s have ids starting with \(text); give more of it."))
        }
        return match
    }
}

/// A synced app's command session (`OutreachSession`, `FoodSession`): opened on the profile's
/// device, synced before the command (to see other devices' changes) and after (to send its own).
@MainActor
protocol AppSession: Sendable {
    init(_ profile: Profile, output: Output) async throws
    /// Syncs if signed in and the server answers, then whatever the app does after a sync.
    func sync() async
}

extension AppSession {
    /// Runs `body` in a session of this app with a sync before and after.
    nonisolated static func run(_ options: ClientOptions, _ console: Console, _ body: @MainActor (Self) async throws -> Void)
        async throws
    {
        try await options.run(console) { profile, output in
            let session = try await Self(profile, output: output)
            await session.sync()
            try await body(session)
            await session.sync()
        }
    }
}
