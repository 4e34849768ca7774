import Foundation
import KithCore

/// The family's reminders (seed 003) as the web pages use them: read from the family's sync scope,
/// and every change written through `SyncWriter` as one more device of the signed-in member, into
/// the family's scope, so `FamilyRules` decide exactly as on a phone's push (a refusal is the rule's
/// code, message and field, and nothing changes) and every member's devices and pages are nudged.
struct ReminderService: Sendable {
    let families: FamilyService
    let repository: SyncRepository
    let operations: OperationWriter
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

    // MARK: Writing

    /// Writes what the input changes: the reminder's fields that differ, then its checklist (lines
    /// edited, added, removed). A new repeat makes its first occurrence due.
    func edit(_ id: UUID, to input: FamilyReminderInput, for user: AuthenticatedUser) async throws {
        let family = try await families.family(of: user)
        try await apply(ReminderOperations.edit(id, to: input, in: family.scope), for: user)
    }

    /// Ticks or unticks one line of a reminder's checklist.
    func setItem(_ itemID: UUID, of id: UUID, done: Bool, for user: AuthenticatedUser) async throws {
        let family = try await families.family(of: user)
        try await apply(ReminderOperations.setItem(itemID, of: id, done: done, in: family.scope), for: user)
    }

    /// Completes the reminder as the user; a repeating one moves to its next occurrence instead.
    func complete(_ id: UUID, for user: AuthenticatedUser) async throws {
        let family = try await families.family(of: user)
        try await apply(ReminderOperations.complete(id, in: family.scope), for: user)
    }

    /// Takes back the user's completion of a moment ago: pending again, due at the occurrence that
    /// was done; `FamilyRules` decide (only the one who completed it, within 30 s).
    func undoCompletion(_ id: UUID, for user: AuthenticatedUser) async throws {
        let family = try await families.family(of: user)
        try await apply(ReminderOperations.undoCompletion(id, in: family.scope), for: user)
    }

    /// The assignee snoozes the due reminder for `minutes`; `FamilyRules` decide (only the
    /// assignee, once it is due, up to the family's limit, 1 to 1,440 minutes).
    func snooze(_ id: UUID, minutes: Int64, for user: AuthenticatedUser) async throws {
        let family = try await families.family(of: user)
        try await apply(ReminderOperations.snooze(id, minutes: minutes, in: family.scope), for: user)
    }

    /// Deletes the reminder; its checklist goes with it (FamilyRules' cascade).
    func delete(_ id: UUID, for user: AuthenticatedUser) async throws {
        let family = try await families.family(of: user)
        try await apply(ReminderOperations.delete(id, in: family.scope), for: user)
    }

    // MARK: Plumbing

    @discardableResult
    func apply<Output: Sendable>(_ operation: RecordOperation<Output>, for user: AuthenticatedUser) async throws -> Output {
        try await operations.apply(operation, userID: user.id.lowercased)
    }
}
