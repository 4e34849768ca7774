import Foundation
import KithCore
import KithKit

/// What every `kith outreach` command works with: the profile's device session (local store, sync)
/// and the Outreach app over it. On the main actor, as `OutreachStore` is.
@MainActor
struct OutreachSession: AppSession {
    let device: DeviceSession
    let outreach: OutreachStore
    /// Where the last change of many people keeps what undoes it (`kith outreach undo`).
    let undoFile: URL
    var output: Output { device.output }

    init(_ profile: Profile, output: Output) async throws {
        device = try await DeviceSession(profile, output: output)
        outreach = OutreachStore(store: device.store)
        undoFile = profile.directory.appendingPathComponent("outreach-undo.json")
    }

    /// Keeps what undoes the change of many people just made, replacing the one before.
    func keep(_ undo: OutreachUndo) throws {
        try JSONEncoder().encode(undo).write(to: undoFile, options: .atomic)
    }

    /// What undoes the last change of many people, taken (so it undoes once); nil when there is none.
    func takeUndo() throws -> OutreachUndo? {
        guard let data = FileManager.default.contents(atPath: undoFile.path) else { return nil }
        try? FileManager.default.removeItem(at: undoFile)
        return try? JSONDecoder().decode(OutreachUndo.self, from: data)
    }

    func sync() async { await device.syncIfReachable() }

    /// The year named `name`, or the selected one.
    func year(named name: String?) throws -> OutreachYear {
        guard let name else { return try outreach.selectedYear() }
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let year = try outreach.years().first(where: { $0.name.caseInsensitiveCompare(trimmed) == .orderedSame })
        else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No year named \(trimmed)."))
        }
        return year
    }

    /// The people whose ids are `texts` or start with them, in any year.
    func contacts(_ texts: [String]) throws -> [OutreachContact] { try texts.map(contact) }

    /// The person whose id is `text` or starts with it (a unique prefix), in any year.
    func contact(_ text: String) throws -> OutreachContact {
        let match = try DeviceSession.record(
            text, among: try outreach.store.records("outreach.contact"), kind: "person")
        guard let contact = try outreach.contact(match.id) else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No person with id \(text)."))
        }
        return contact
    }
}
