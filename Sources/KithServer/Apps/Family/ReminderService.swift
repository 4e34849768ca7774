import Foundation
import KithCore

/// The family's reminders (seed 003) as the web pages use them: read from the family's sync scope,
/// and every change written through `SyncWriter` as one more device of the signed-in member, into
/// the family's scope, so `FamilyRules` decide exactly as on a phone's push (a refusal is the rule's
/// code, message and field, and nothing changes) and every member's devices and pages are nudged.
struct ReminderService: WritesAsADevice, Sendable {
    let families: FamilyService
    let repository: SyncRepository
    let writer: SyncWriter
    let stamps: WebClock
    let clock: Clock
    let ids: IdentifierSource

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

    /// A new reminder with its checklist. The lines are checked before anything is written.
    @discardableResult
    func create(_ draft: ReminderDraft, for user: AuthenticatedUser) async throws -> UUID {
        let snapshot = try await snapshot(for: user)
        try Self.check(draft.checklist)
        let id = ids.uuid()
        let fields = ReminderFields.new(
            title: draft.title, dueAt: try due(of: draft), assignee: draft.assigneeId, creator: snapshot.me,
            createdAt: clock.now(), recurrence: draft.recurrence
        ).merging(placeFields(draft.place, was: nil)) { _, place in place }
        try await write([upsert(FamilyEntities.reminder, id, fields, in: snapshot.scope)], user: user)
        let lines = draft.checklist.enumerated().map { position, line in
            upsert(
                FamilyEntities.checklistItem, ids.uuid(),
                ReminderFields.item(of: id, text: line.text, position: Int64(position)),
                in: snapshot.scope)
        }
        try await write(lines, user: user)
        return id
    }

    /// Writes what the draft changes: the reminder's fields that differ, then its checklist (lines
    /// edited, added, removed). A new repeat makes its first occurrence due.
    func edit(_ id: UUID, to draft: ReminderDraft, for user: AuthenticatedUser) async throws {
        let (snapshot, reminder) = try await reminder(id, for: user)
        try Self.check(draft.checklist)
        let current = try await existing(FamilyEntities.reminder, id, in: snapshot.scope, what: "That reminder")
        var fields: [String: JSONTree] = [:]
        let title = draft.title.trimmedWhitespace
        if title != reminder.title { fields["title"] = .string(title) }
        if draft.assigneeId.lowercased() != reminder.assigneeId {
            fields["assigneeId"] = .string(draft.assigneeId.lowercased())
        }
        if draft.recurrence != snapshot.recurrences[id] {
            fields.merge(ReminderFields.repeating(draft.recurrence)) { _, new in new }
            fields["dueAt"] = ReminderFields.timestamp(try due(of: draft))
        } else if draft.recurrence == nil, let due = draft.dueAt, due != reminder.dueAt {
            fields["dueAt"] = ReminderFields.timestamp(due)
        }
        fields.merge(placeFields(draft.place, was: reminder.location)) { _, place in place }
        if !fields.isEmpty {
            try await write(
                [upsert(FamilyEntities.reminder, id, fields, after: [current], in: snapshot.scope)], user: user)
        }
        var changes: [Mutation] = []
        let kept = Set(draft.checklist.compactMap(\.id))
        for item in reminder.checklist where !kept.contains(item.id) {
            changes.append(delete(FamilyEntities.checklistItem, item.id, after: [], in: snapshot.scope))
        }
        for (position, line) in draft.checklist.enumerated() {
            let text = line.text.trimmedWhitespace
            if let itemID = line.id, let item = reminder.checklist.first(where: { $0.id == itemID }) {
                guard item.text != text || item.position != Int64(position) else { continue }
                changes.append(
                    upsert(
                        FamilyEntities.checklistItem, itemID,
                        ["text": .string(text), "position": .int(Int64(position))],
                        in: snapshot.scope))
            } else {
                changes.append(
                    upsert(
                        FamilyEntities.checklistItem, ids.uuid(),
                        ReminderFields.item(of: id, text: text, position: Int64(position)),
                        in: snapshot.scope))
            }
        }
        try await write(changes, user: user)
    }

    /// Ticks or unticks one line of a reminder's checklist.
    func setItem(_ itemID: UUID, of id: UUID, done: Bool, for user: AuthenticatedUser) async throws {
        let (snapshot, reminder) = try await reminder(id, for: user)
        guard reminder.checklist.contains(where: { $0.id == itemID }) else {
            throw AppError.notFound("That checklist item")
        }
        let current = try await existing(
            FamilyEntities.checklistItem, itemID, in: snapshot.scope, what: "That checklist item")
        try await write(
            [upsert(FamilyEntities.checklistItem, itemID, ["done": .bool(done)], after: [current], in: snapshot.scope)],
            user: user)
    }

    /// Completes the reminder as the user; a repeating one moves to its next occurrence instead.
    func complete(_ id: UUID, for user: AuthenticatedUser) async throws {
        let (snapshot, reminder) = try await reminder(id, for: user)
        let completion: ReminderFields.Completion
        switch ReminderFields.completion(of: reminder, recurrence: snapshot.recurrences[id], by: snapshot.me, at: clock.now()) {
        case .success(let found): completion = found
        case .failure(let problem): throw AppError.validation(problem)
        }
        let current = try await existing(FamilyEntities.reminder, id, in: snapshot.scope, what: "That reminder")
        // The reminder first: unticking is for the next occurrence, once this one is done.
        try await write([upsert(FamilyEntities.reminder, id, completion.reminder, after: [current], in: snapshot.scope)], user: user)
        var unticks: [Mutation] = []
        for item in completion.untick {
            let ticked = try await existing(FamilyEntities.checklistItem, item, in: snapshot.scope, what: "That item")
            unticks.append(upsert(FamilyEntities.checklistItem, item, ["done": .bool(false)], after: [ticked], in: snapshot.scope))
        }
        try await write(unticks, user: user)
    }

    /// Takes back the user's completion of a moment ago: pending again, due at the occurrence that
    /// was done; `FamilyRules` decide (only the one who completed it, within 30 s).
    func undoCompletion(_ id: UUID, for user: AuthenticatedUser) async throws {
        let (snapshot, reminder) = try await reminder(id, for: user)
        let fields = try ReminderFields.undoCompletion(of: reminder).mapError(AppError.validation).get()
        let current = try await existing(FamilyEntities.reminder, id, in: snapshot.scope, what: "That reminder")
        try await write([upsert(FamilyEntities.reminder, id, fields, after: [current], in: snapshot.scope)], user: user)
    }

    /// The assignee snoozes the due reminder for `minutes`; `FamilyRules` decide (only the
    /// assignee, once it is due, up to the family's limit, 1 to 1,440 minutes).
    func snooze(_ id: UUID, minutes: Int64, for user: AuthenticatedUser) async throws {
        let (snapshot, reminder) = try await reminder(id, for: user)
        let current = try await existing(FamilyEntities.reminder, id, in: snapshot.scope, what: "That reminder")
        try await write(
            [
                upsert(
                    FamilyEntities.reminder, id, ReminderFields.snooze(reminder, minutes: minutes, now: clock.now()),
                    after: [current], in: snapshot.scope)
            ], user: user)
    }

    /// Deletes the reminder; the server deletes its checklist with it (FamilyRules' cascade).
    func delete(_ id: UUID, for user: AuthenticatedUser) async throws {
        let (snapshot, _) = try await reminder(id, for: user)
        let current = try await existing(FamilyEntities.reminder, id, in: snapshot.scope, what: "That reminder")
        try await write([delete(FamilyEntities.reminder, id, after: [current], in: snapshot.scope)], user: user)
    }

    // MARK: Plumbing

    /// The location fields a place writes when it differs from the stored one: a new place
    /// (tracking starts again), all of them null when the place was removed, none when unchanged.
    private func placeFields(_ place: ReminderDraft.Place?, was stored: ReminderLocation?) -> [String: JSONTree] {
        guard let place else {
            guard stored != nil else { return [:] }
            return ReminderFields.placeFieldNames.reduce(into: [:]) { $0[$1] = .null }
        }
        if let stored, stored.point == place.point, stored.accuracy == place.accuracy { return [:] }
        // A new reminder has no movement or reading to clear: it leaves them out rather than null.
        return ReminderFields.location(place.point, accuracy: place.accuracy, at: clock.now()).filter {
            stored != nil || $0.value != .null
        }
    }

    /// When the draft is due: its first occurrence after now when it repeats, else its due time.
    private func due(of draft: ReminderDraft) throws -> Date {
        if let recurrence = draft.recurrence {
            guard let first = recurrence.next(after: clock.now()) else {
                throw AppError.validation(
                    APIErrorDetail(.validationFailed, "This repeat has no occurrence.", field: "repeatStart"))
            }
            return first
        }
        guard let due = draft.dueAt else {
            throw AppError.validation(APIErrorDetail(.validationFailed, "Choose when it is due.", field: "dueAt"))
        }
        return due
    }

    /// Every line against `family.checklistItem`'s limits, before anything is written; a problem
    /// names its line (`checklist.2`).
    static func check(_ lines: [ReminderDraft.Line]) throws {
        for (index, line) in lines.enumerated() {
            let fields = ["text": JSONTree.string(line.text.trimmedWhitespace)]
            if let problem = FamilyEntities.checklistItem.problems(in: fields, isCreation: false).first {
                throw AppError.validation(
                    APIErrorDetail(
                        code: problem.code, message: "Item \(index + 1): \(problem.message)",
                        field: "checklist.\(index)"))
            }
        }
    }
}
