import Foundation

/// A reminder as a person describes it (a form, a command, an app's screen), for creating or
/// editing one. When it repeats, `dueAt` is left to the operation: the first occurrence after now.
public struct FamilyReminderInput: Sendable, Equatable {
    /// One line of the checklist: an existing item (its id) or a new one.
    public struct Line: Sendable, Equatable {
        public var id: UUID?
        public var text: String

        public init(id: UUID? = nil, text: String) {
            self.id = id
            self.text = text
        }
    }

    /// Where the reminder happens, as typed or as a location service found it.
    public struct Place: Sendable, Equatable {
        public var point: GeoPoint
        /// Metres; 0 when the person typed the numbers without one.
        public var accuracy: Double

        public init(point: GeoPoint, accuracy: Double) {
            self.point = point
            self.accuracy = accuracy
        }
    }

    public var title: String
    public var dueAt: Date?
    /// A member's user id.
    public var assigneeId: String
    public var recurrence: Recurrence?
    public var checklist: [Line]
    /// nil: no place (editing, one that had a place loses it).
    public var place: Place?

    public init(
        title: String, dueAt: Date?, assigneeId: String, recurrence: Recurrence? = nil, checklist: [Line] = [],
        place: Place? = nil
    ) {
        self.title = title
        self.dueAt = dueAt
        self.assigneeId = assigneeId
        self.recurrence = recurrence
        self.checklist = checklist
        self.place = place
    }

    /// The input a reminder as stored makes (what a form shows of it).
    public init(_ reminder: FamilyReminder, recurrence: Recurrence?) {
        self.init(
            title: reminder.title, dueAt: reminder.dueAt, assigneeId: reminder.assigneeId, recurrence: recurrence,
            checklist: reminder.checklist.map { Line(id: $0.id, text: $0.text) },
            place: reminder.location.map { Place(point: $0.point, accuracy: $0.accuracy) })
    }
}
