import Foundation
import KithCore
import KithKit

/// What every `kith family` and `kith reminders` command works with: the signed-in account's device
/// session and the Family app over it. Reminders work offline (a sync before and after, when the
/// server answers); family membership is the server's, so `kith family` calls it and then syncs,
/// which brings the family's records (or drops them after leaving).
@MainActor
struct FamilySession: AppSession {
    let device: DeviceSession
    let family: FamilyStore
    var output: Output { device.output }

    init(_ profile: Profile, output: Output) async throws {
        device = try await DeviceSession(profile, output: output)
        // Families need an account: the rules judge who writes, and only the server adds members.
        guard device.client != nil else { throw KithError.notSignedIn }
        family = FamilyStore(store: device.store)
    }

    func sync() async { await device.syncIfReachable() }

    /// The signed-in account's client (a session always has one; see `init`).
    var client: KithClient {
        get throws {
            guard let client = device.client else { throw KithError.notSignedIn }
            return client
        }
    }

    /// Runs a membership command: `body` calls the server, then a sync brings its effect here.
    nonisolated static func runOnline(
        _ options: ClientOptions, _ console: Console, _ body: @MainActor (FamilySession) async throws -> Void
    ) async throws {
        try await options.run(console) { profile, output in
            let session = try await FamilySession(profile, output: output)
            try await body(session)
            await session.sync()
        }
    }

    nonisolated static let notInFamily = KithError.invalid(
        APIErrorDetail(
            .notInFamily,
            "You are not in a family. Create one with `kith family create NAME` or join one with `kith family join CODE`."
        ))

    /// The family as this device knows it, or a clear refusal.
    func knownFamily() throws -> LocalFamily {
        guard let known = family.family else { throw Self.notInFamily }
        return known
    }

    /// The reminder whose id is `text` or starts with it.
    func reminder(_ text: String) throws -> FamilyReminder {
        let scope = try knownFamily().scope
        let records = try device.store.records(FamilyEntities.reminder.name).filter { $0.scope == scope }
        let match = try DeviceSession.record(text, among: records, kind: "reminder")
        guard let reminder = try family.reminder(match.id) else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No reminder with id \(text)."))
        }
        return reminder
    }

    /// MEMBER as typed: a display name, from this device's records (works offline), else an email
    /// or display name from the server's answer (emails are only there).
    func member(_ text: String) async throws -> FamilyMember {
        let known = try knownFamily()
        let onDevice = known.members.map { KnownMember($0, email: nil) }
        if let found = try MemberLookup.find(text, among: onDevice) { return try local(found, in: known) }
        let found: KnownMember
        do {
            found = try await serverMember(text)
        } catch let error as any UserFacingError where error.kind == .unreachable {
            throw MemberLookup.unknown(text, among: onDevice, offline: true)
        }
        return try local(found, in: known)
    }

    /// MEMBER among the members the server knows, emails included (needs the server).
    func serverMember(_ text: String) async throws -> KnownMember {
        guard let family = try await client.family() else { throw Self.notInFamily }
        let members = family.members.map(KnownMember.init)
        guard let found = try MemberLookup.find(text, among: members) else {
            throw MemberLookup.unknown(text, among: members, offline: false)
        }
        return found
    }

    /// The member record of someone the server named; they may not have reached this device yet.
    private func local(_ found: KnownMember, in family: LocalFamily) throws -> FamilyMember {
        guard let member = family.member(found.userId) else {
            throw KithError.invalid(
                APIErrorDetail(
                    .notFound,
                    "\(found.displayName) is not in this device's copy of the family yet: run `kith sync` and try again."
                ))
        }
        return member
    }
}
