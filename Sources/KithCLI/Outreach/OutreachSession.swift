import Foundation
import KithCore
import KithKit

/// What every `kith outreach` command works with: the profile's local store (the signed-in
/// account's, else the anonymous one) and, when signed in, a sync before and after, so a command
/// sees other devices' changes and sends its own, yet works with no server at all. On the main
/// actor, as `OutreachStore` is.
@MainActor
struct OutreachSession {
    let outreach: OutreachStore
    let engine: SyncEngine?
    let output: Output

    init(_ profile: Profile, output: Output) async throws {
        let client = try profile.client()
        let store: LocalStore
        if let session = try await client.storedSession() {
            store = try profile.storeDirectory.store(forUser: session.user.id)
            engine = SyncEngine(store: store, service: client)
        } else {
            store = try profile.storeDirectory.anonymousStore()
            engine = nil
        }
        outreach = OutreachStore(store: store)
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

    /// The year named `name`, or the selected one.
    func year(named name: String?) throws -> OutreachYear {
        guard let name else { return try outreach.selectedYear() }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let year = try outreach.years().first(where: { $0.name.caseInsensitiveCompare(trimmed) == .orderedSame })
        else {
            throw KithError.invalid(APIErrorDetail(code: "not_found", message: "No year named \(trimmed)."))
        }
        return year
    }

    /// The person whose id is `text` or starts with it (a unique prefix), in any year.
    func contact(_ text: String) throws -> OutreachContact {
        let prefix = text.lowercased()
        let matches = try outreach.store.records("outreach.contact")
            .filter { $0.id.uuidString.lowercased().hasPrefix(prefix) }
        guard !prefix.isEmpty, let match = matches.first else {
            throw KithError.invalid(APIErrorDetail(code: "not_found", message: "No person with id \(text)."))
        }
        guard matches.count == 1 else {
            throw KithError.invalid(
                APIErrorDetail(
                    code: "ambiguous_id",
                    message: "\(matches.count) people have ids starting with \(text); give more of it."))
        }
        guard let contact = try outreach.contact(match.id) else {
            throw KithError.invalid(APIErrorDetail(code: "not_found", message: "No person with id \(text)."))
        }
        return contact
    }
}
