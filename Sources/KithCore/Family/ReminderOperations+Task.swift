import Foundation

/// A reminder as a task app says it should be, all at once (a phone's Reminders app over CalDAV
/// sends the whole task on every change): what it is, which checklist lines are ticked, and
/// whether it is done.
public struct FamilyTaskState: Sendable, Equatable {
    public var input: FamilyReminderInput
    /// For each line of `input.checklist`, whether it is ticked.
    public var ticked: [Bool]
    public var completed: Bool

    public init(input: FamilyReminderInput, ticked: [Bool], completed: Bool) {
        self.input = input
        self.ticked = ticked
        self.completed = completed
    }
}

extension ReminderOperations {
    /// Makes the reminder `id` (a new one when nil) what `task` says, in one operation, as the
    /// person would have done it step by step on another surface: the reminder's fields and
    /// checklist (`edit`, against the reminder as it stands), then the lines ticked or unticked,
    /// then its completion or the undoing of it. Each step is judged by `FamilyRules` as it
    /// would be alone, and the first refusal refuses the whole task: nothing changes.
    public static func saveTask(_ id: UUID?, _ task: FamilyTaskState, in scope: String) -> RecordOperation<
        FamilyReminder
    > {
        RecordOperation("family.saveTask", scope: .shared(scope), reads: reads) { (draft) throws(APIErrorDetail) in
            var reminder: FamilyReminder
            if let id {
                let current = try draft.reminder(id)
                let was = FamilyReminderInput(current, recurrence: draft.recurrence(of: id))
                reminder = current
                if !current.isCompletedForGood && !sameTask(task.input, was) {
                    reminder = try edit(id, to: task.input, in: scope).plan(&draft)
                }
            } else {
                reminder = try create(task.input, in: scope).plan(&draft)
            }
            for (index, line) in task.input.checklist.enumerated() where index < task.ticked.count {
                guard
                    let item = reminder.checklist.first(where: { $0.id == line.id })
                        ?? (line.id == nil ? reminder.checklist.first(where: { $0.position == Int64(index) }) : nil),
                    item.done != task.ticked[index]
                else { continue }
                reminder = try setItem(item.id, of: reminder.id, done: task.ticked[index], in: scope).plan(&draft)
            }
            if task.completed && reminder.status == .pending {
                // The phone's task app asked already, or shows the description with its boxes.
                reminder = try complete(reminder.id, evenIfUnticked: true, in: scope).plan(&draft)
            } else if !task.completed && reminder.status == .completed {
                reminder = try undoCompletion(reminder.id, in: scope).plan(&draft)
            }
            return reminder
        }
    }

    /// Whether two descriptions of a reminder ask for the same thing (a task sent back unchanged).
    private static func sameTask(_ new: FamilyReminderInput, _ old: FamilyReminderInput) -> Bool {
        new.title.trimmedWhitespace == old.title.trimmedWhitespace
            && new.assigneeId.lowercased() == old.assigneeId.lowercased() && new.recurrence == old.recurrence
            && (new.recurrence != nil || new.dueAt == old.dueAt)
            && new.checklist.map { $0.text.trimmedWhitespace } == old.checklist.map { $0.text.trimmedWhitespace }
    }
}

extension FamilyReminder {
    /// A one-off reminder that is completed: read-only, only an undo changes it.
    var isCompletedForGood: Bool { status == .completed }
}
