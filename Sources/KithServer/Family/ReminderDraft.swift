import Foundation
import KithCore

/// A reminder as a person describes it on a form, for creating or editing one. When it repeats,
/// `dueAt` is left to `ReminderService`: the first occurrence after now.
struct ReminderDraft: Sendable, Equatable {
    /// One line of the checklist: an existing item (its id) or a new one.
    struct Line: Sendable, Equatable {
        var id: UUID?
        var text: String
    }

    var title: String
    var dueAt: Date?
    var assigneeId: String
    var recurrence: WeeklyRecurrence?
    var checklist: [Line]
}
