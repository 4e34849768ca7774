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

    /// Where the reminder happens, as typed or as the browser's location service found it.
    struct Place: Sendable, Equatable {
        var point: GeoPoint
        /// Metres; 0 when the person typed the numbers without one.
        var accuracy: Double
    }

    var title: String
    var dueAt: Date?
    var assigneeId: String
    var recurrence: WeeklyRecurrence?
    var checklist: [Line]
    /// nil: no place (editing, one that had a place loses it).
    var place: Place? = nil
}
