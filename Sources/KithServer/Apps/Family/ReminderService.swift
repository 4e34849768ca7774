import Foundation
import KithCore

/// The family's reminders as the web pages read them, from the family's sync scope. The pages make
/// changes as `ReminderOperations`, applied as the signed-in member through `OperationWriter`, so
/// `FamilyRules` decide exactly as on a phone's push and every member's devices are nudged.
struct ReminderService: Sendable {
    let families: FamilyService
    let repository: SyncRepository
    let clock: Clock

    static let entities = Set(FamilyEntities.all.map(\.name))

    /// The user's family and its records; "not in a family" (404) without one.
    func snapshot(for user: AuthenticatedUser) async throws -> FamilySnapshot {
        let family = try await families.family(of: user)
        let records = try await repository.liveFields(Self.entities, in: family.scope)
        return FamilySnapshot(family: family, records: records, me: user.id.lowercased)
    }

    func now() -> Date { clock.now() }

    /// One reminder of the user's family with the family around it; 404 for anyone else's.
    func reminder(_ id: UUID, for user: AuthenticatedUser) async throws -> (FamilySnapshot, FamilyReminder) {
        let snapshot = try await snapshot(for: user)
        guard let reminder = snapshot.reminder(id) else { throw AppError.notFound("That reminder") }
        return (snapshot, reminder)
    }
}
