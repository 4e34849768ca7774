import Foundation

/// Seed 003's rules, written once and checked by the server inside each mutation's transaction
/// and by devices before they write (docs/family.md). Who may do what comes from the writer
/// (`RuleContext.actor`) and the family's member records (roles), the same on both sides:
/// - a new reminder is pending, created by the writer, due in the future, for a member; a child
///   creates reminders only for themselves, a parent for anyone in the family;
/// - a pending reminder is changed by its creator, its assignee or a parent; a completed one is
///   read-only; what a parent asked of a child only a parent changes (`FamilyRules+ChildLimits`);
/// - only the creator or the assignee completes it (`completedBy` is the one completing), however
///   the change is spelled (`FamilyRules+Completion`); a recurring reminder is completed one
///   occurrence at a time: its `dueAt` moves to the next occurrence, so two devices completing the
///   same occurrence offline move it once;
/// - the one who completed it may undo the completion within 30 s, and nothing else with it
///   (`FamilyRules+Undo.swift`);
/// - deleting is for the creator or a parent;
/// - a checklist item belongs to a pending reminder and is changed by those who may change it.
public enum FamilyRules {
    public static let all: [any RecordRule] = [ReminderRule(), ChecklistItemRule()]

    static let reminderEntity = FamilyEntities.reminder.name
    static let memberEntity = FamilyEntities.member.name
    static let infoEntity = FamilyEntities.info.name

    /// Each member's role by user id (lower case).
    static func roles(_ records: [String: [SyncRecord]]) -> [String: String] {
        var roles: [String: String] = [:]
        for member in records[memberEntity] ?? [] {
            if let user = member.fields["userId"]?.stringValue?.lowercased(),
                let role = member.fields["role"]?.stringValue
            {
                roles[user] = role
            }
        }
        return roles
    }

    static func refuse(_ code: ErrorCode, _ message: String, field: String? = nil) -> APIErrorDetail {
        APIErrorDetail(code, message, field: field)
    }

    static let notMember = refuse(.forbidden, "You are not a member of this family.")
    static let completed = refuse(.completed, "A completed reminder can't be changed.")

    static func timeZone(_ records: [String: [SyncRecord]]) -> TimeZone {
        records[infoEntity]?.first?.fields["timeZone"]?.stringValue.flatMap(TimeZone.init(identifier:))
            ?? TimeZone(secondsFromGMT: 0) ?? .gmt
    }

    /// Snoozing: only the assignee, once the occurrence is due, one more time than
    /// before and at most the family's limit, for 1 to 1,440 minutes. The count goes back to 0 only
    /// with a new due time (an edit, or completing one occurrence of a repeat).
    static func snoozeProblem(
        _ mutation: Mutation, current: [String: JSONTree], actor: String, records: [String: [SyncRecord]],
        context: RuleContext
    ) -> APIErrorDetail? {
        let until = mutation.fields[ReminderFields.snoozedUntil]?.stringValue.flatMap(WireCoding.parseTimestamp)
        let count = mutation.fields[ReminderFields.snoozeCount]?.intValue
        guard until != nil || (count ?? 0) > 0 else {
            if count == 0, mutation.fields[ReminderFields.dueAt] == nil {
                return refuse(
                    .validationFailed, "A snooze count starts again only with a new due time.",
                    field: ReminderFields.snoozeCount)
            }
            return nil
        }
        guard current[ReminderFields.assigneeId]?.stringValue?.lowercased() == actor else {
            return refuse(.notAllowed, "Only the person the reminder is for can snooze it.")
        }
        guard let until, let count else {
            return refuse(
                .validationFailed, "A snooze says until when and how many times.", field: ReminderFields.snoozedUntil)
        }
        let due = current[ReminderFields.dueAt]?.stringValue.flatMap(WireCoding.parseTimestamp) ?? .distantFuture
        guard context.now >= due else {
            return refuse(
                .validationFailed, "A reminder is snoozed once it is due.", field: ReminderFields.snoozedUntil)
        }
        let limit = records[infoEntity]?.first?.fields["snoozeLimit"]?.intValue ?? FamilyLimits.defaultSnoozeLimit
        let before = current[ReminderFields.snoozeCount]?.intValue ?? 0
        guard before < limit else {
            let times = before == 1 ? "once" : "\(before) times"
            return refuse(
                .snoozeLimit, "This reminder was snoozed \(times), the family's limit.",
                field: ReminderFields.snoozeCount)
        }
        guard count == before + 1 else {
            return refuse(
                .validationFailed, "Each snooze counts one more than the last.", field: ReminderFields.snoozeCount)
        }
        let minutes = until.timeIntervalSince(context.now) / 60
        guard minutes >= Double(FamilyLimits.snoozeMinutes.lowerBound) - 1,
            minutes <= Double(FamilyLimits.snoozeMinutes.upperBound)
        else {
            return refuse(.validationFailed, "A snooze lasts 1 to 1,440 minutes.", field: ReminderFields.snoozedUntil)
        }
        return nil
    }

    struct ReminderRule: RecordRule {
        var entity: String { FamilyRules.reminderEntity }
        var reads: [String] { [FamilyRules.memberEntity, FamilyRules.infoEntity] }
        var cascadeReads: [String] { [FamilyEntities.checklistItem.name] }

        func problem(
            with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext
        )
            -> APIErrorDetail?
        {
            // No person writes (data moving between a device's stores): nothing to decide about who.
            guard let actor = context.actor?.lowercased() else { return nil }
            let roles = FamilyRules.roles(records)
            guard let role = roles[actor] else { return FamilyRules.notMember }
            let isParent = role == "parent"
            func string(_ name: String, _ fields: [String: JSONTree]?) -> String? {
                fields?[name]?.stringValue?.lowercased()
            }

            if mutation.op == .delete {
                guard let current else { return nil }
                return isParent || string(ReminderFields.creatorId, current.fields) == actor
                    ? nil : FamilyRules.refuse(.notAllowed, "Only the reminder's creator or a parent can delete it.")
            }
            var merged = current?.fields ?? [:]
            for (name, value) in mutation.fields { merged[name] = value }
            let zone = FamilyRules.timeZone(records)
            let recurrence: Recurrence?
            switch FamilyRules.recurrence(merged, timeZone: zone) {
            case .failure(let problem): return problem
            case .success(let found): recurrence = found
            }
            let due = merged[ReminderFields.dueAt]?.stringValue.flatMap(WireCoding.parseTimestamp)

            if let current {
                let change = FamilyRules.completionChange(mutation, of: current.fields, timeZone: zone)
                // Before "read-only": an undo is the one change a completed reminder takes.
                if change == .undo {
                    return FamilyRules.undoProblem(mutation, current: current.fields, actor: actor, now: context.now)
                }
                if string(ReminderFields.status, current.fields) == "completed" { return FamilyRules.completed }
                // What a completion left unticked is written with that completion, never alone.
                if let unticked = mutation.fields[ReminderFields.completedUnticked], change != .completion,
                    unticked != (current.fields[ReminderFields.completedUnticked] ?? .null)
                {
                    return FamilyRules.refuse(
                        .validationFailed, "completedUnticked is written with a completion.",
                        field: ReminderFields.completedUnticked)
                }
                if FamilyRules.isChildOnAParentsReminder(actor: actor, role: role, reminder: current.fields),
                    let problem = FamilyRules.childLimitProblem(mutation, current: current.fields, change: change)
                {
                    return problem
                }
                for name in [ReminderFields.creatorId, ReminderFields.createdAt] {
                    if let given = mutation.fields[name], given != current.fields[name] {
                        return FamilyRules.refuse(.validationFailed, "A reminder's \(name) can't change.", field: name)
                    }
                }
                let creator = string(ReminderFields.creatorId, current.fields)
                let assignee = string(ReminderFields.assigneeId, current.fields)
                if let problem = FamilyRules.snoozeProblem(
                    mutation, current: current.fields, actor: actor, records: records, context: context)
                {
                    return problem
                }
                if let problem = FamilyRules.movementProblem(
                    mutation, current: current.fields, merged: merged, actor: actor)
                {
                    return problem
                }
                if change == .completion {
                    if let problem = FamilyRules.completionProblem(
                        mutation, current: current.fields, merged: merged, actor: actor, recurrence: recurrence)
                    {
                        return problem
                    }
                } else if !(isParent || actor == creator || actor == assignee) {
                    return FamilyRules.refuse(
                        .notAllowed, "Only the creator, the assignee or a parent can change this reminder.")
                } else if mutation.fields[ReminderFields.dueAt] != nil, let due, due <= context.now {
                    return FamilyRules.refuse(
                        .dueInPast, "The due time must be in the future.", field: ReminderFields.dueAt)
                }
            } else {
                guard string(ReminderFields.creatorId, merged) == actor else {
                    return FamilyRules.refuse(
                        .validationFailed, "A new reminder's creator is the one creating it.",
                        field: ReminderFields.creatorId)
                }
                let completing = (FamilyRules.completionFields + [ReminderFields.completedUnticked]).contains {
                    merged[$0].map { $0 != .null } ?? false
                }
                guard string(ReminderFields.status, merged) == "pending", !completing else {
                    return FamilyRules.refuse(
                        .validationFailed, "A new reminder is pending.", field: ReminderFields.status)
                }
                guard let due, due > context.now else {
                    return FamilyRules.refuse(
                        .dueInPast, "The due time must be in the future.", field: ReminderFields.dueAt)
                }
                if let recurrence, recurrence.start < LocalDate(context.now, in: zone) {
                    return FamilyRules.refuse(
                        .validationFailed, "A repeat starts today or later.", field: ReminderFields.repeatStart)
                }
            }
            if mutation.fields[ReminderFields.assigneeId] != nil {
                let assignee = string(ReminderFields.assigneeId, merged) ?? ""
                guard roles[assignee] != nil else {
                    return FamilyRules.refuse(
                        .notAMember, "A reminder is for a member of the family.", field: ReminderFields.assigneeId)
                }
                if !isParent && assignee != actor {
                    return FamilyRules.refuse(
                        .childrenAssignThemselves, "A child can create reminders only for themselves.",
                        field: ReminderFields.assigneeId)
                }
            }
            return nil
        }

        func cascade(of mutation: Mutation, records: [String: [SyncRecord]]) -> [SyncRecord] {
            guard mutation.op == .delete else { return [] }
            let key = JSONTree.string(mutation.id.lowercased)
            return (records[FamilyEntities.checklistItem.name] ?? []).filter {
                $0.fields[ReminderFields.reminderId] == key
            }
        }
    }

    struct ChecklistItemRule: RecordRule {
        var entity: String { FamilyEntities.checklistItem.name }
        var reads: [String] { [FamilyRules.memberEntity, FamilyRules.reminderEntity] }

        func problem(
            with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext
        )
            -> APIErrorDetail?
        {
            guard let actor = context.actor?.lowercased() else { return nil }
            let roles = FamilyRules.roles(records)
            guard let role = roles[actor] else { return FamilyRules.notMember }
            let reminderText =
                (mutation.fields[ReminderFields.reminderId] ?? current?.fields[ReminderFields.reminderId])?.stringValue?
                .lowercased()
            if let current, let moved = mutation.fields[ReminderFields.reminderId],
                moved != current.fields[ReminderFields.reminderId]
            {
                return FamilyRules.refuse(
                    .validationFailed, "A checklist item can't move to another reminder.",
                    field: ReminderFields.reminderId)
            }
            guard
                let reminder = (records[FamilyRules.reminderEntity] ?? []).first(where: {
                    $0.id.lowercased == reminderText
                })
            else {
                // Deleting an item whose reminder went already is harmless.
                return mutation.op == .delete
                    ? nil
                    : FamilyRules.refuse(
                        .notFound, "This item's reminder does not exist (it may have been deleted).",
                        field: ReminderFields.reminderId)
            }
            if reminder.fields[ReminderFields.status]?.stringValue == "completed" { return FamilyRules.completed }
            let creator = reminder.fields[ReminderFields.creatorId]?.stringValue?.lowercased()
            let assignee = reminder.fields[ReminderFields.assigneeId]?.stringValue?.lowercased()
            guard role == "parent" || actor == creator || actor == assignee else {
                return FamilyRules.refuse(
                    .notAllowed, "Only the creator, the assignee or a parent can change this checklist.")
            }
            if FamilyRules.isChildOnAParentsReminder(actor: actor, role: role, reminder: reminder.fields) {
                return FamilyRules.childItemProblem(mutation, current: current)
            }
            return nil
        }
    }
}
