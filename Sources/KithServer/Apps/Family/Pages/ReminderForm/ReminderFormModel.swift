import Foundation
import KithCore

/// The reminder form, new or editing (family-reminder-form.mustache): what was typed, the members
/// the reader may assign, the weekdays, the checklist rows, the repeat's next occurrences, and a
/// refusal next to its field (or above the form).
struct ReminderFormModel: FamilyPageModel {
    static let template = "family-reminder-form"

    /// "New reminder" or "Edit …"; where the form posts, the way back, the button's words.
    let heading: String
    let action: String
    let cancel: String
    let button: String
    /// The family's zone, the form's clock.
    let zone: String
    let form: Fields
    let members: [Assignee]
    /// A child makes reminders for themselves: the list is them alone.
    let onlyMe: Bool
    let weekdays: [WeekdayChoice]
    let lines: [Line]
    let maximumLines = ReminderForm.maximumLines
    let occurrences: [String]
    let hasOccurrences: Bool
    /// An edit form's hidden `seen.…` fields: the reminder as the page loaded it, so a save
    /// writes only what the person changed (docs/sync.md, "A write says what it saw").
    let seen: [HiddenField]
    let errors: Errors
    var error: String?
    let limits = Limits.declared

    init(
        _ purpose: Purpose, zone: String, form: Fields, members: [Assignee], onlyMe: Bool, weekdays: [WeekdayChoice],
        lines: [Line], occurrences: [String], seen: [HiddenField], errors: Errors, error: String?
    ) {
        heading = purpose.heading
        action = purpose.action
        cancel = purpose.cancel
        button = purpose.button
        self.zone = zone
        self.form = form
        self.members = members
        self.onlyMe = onlyMe
        self.weekdays = weekdays
        self.lines = lines
        self.occurrences = occurrences
        hasOccurrences = !occurrences.isEmpty
        self.seen = seen
        self.errors = errors
        self.error = error
    }

    /// A new reminder, or editing one.
    struct Purpose {
        let heading: String
        let action: String
        let cancel: String
        let button: String

        static let new = Purpose(
            heading: "New reminder", action: "/family/reminders", cancel: "/family", button: "Create reminder")

        static func editing(_ reminder: FamilyReminder) -> Purpose {
            let id = reminder.id.lowercased
            return Purpose(
                heading: "Edit \(reminder.title)", action: "/family/reminders/\(id)/edit",
                cancel: "/family/reminders/\(id)", button: "Save changes")
        }
    }

    struct HiddenField {
        let name: String
        let value: String
    }

    struct Fields {
        let title: String
        let dueAt: String
        let repeatInterval: String
        let repeatStart: String
        let repeatTime: String
        let repeats: Bool
        let latitude: String
        let longitude: String
        let locationAccuracy: String
    }

    struct Assignee {
        let id: String
        let name: String
        let role: String
        let selected: Bool
    }

    struct WeekdayChoice {
        /// "MO".
        let code: String
        let name: String
        let checked: Bool
    }

    /// A checklist row: its place in the field names (`checklist.0.text`) and in words from 1, the
    /// text, the item's id when it exists, and a refusal of this line.
    struct Line {
        let index: Int
        let number: Int
        let text: String
        let id: String?
        let problem: String?
    }

    struct Errors: FieldErrors {
        var title: String?
        var dueAt: String?
        var assigneeId: String?
        var repeatDays: String?
        var repeatInterval: String?
        var repeatStart: String?
        var repeatTime: String?
        var latitude: String?
        var longitude: String?
        var locationAccuracy: String?

        static var fields: [String: WritableKeyPath<Self, String?>] {
            [
                ReminderFields.title: \.title, ReminderFields.dueAt: \.dueAt, ReminderFields.assigneeId: \.assigneeId,
                ReminderFields.repeatDays: \.repeatDays,
                ReminderFields.repeatInterval: \.repeatInterval, ReminderFields.repeatStart: \.repeatStart,
                ReminderFields.repeatTime: \.repeatTime,
                ReminderFields.latitude: \.latitude, ReminderFields.longitude: \.longitude,
                ReminderFields.locationAccuracy: \.locationAccuracy,
            ]
        }
    }

    /// The form's limits, from the entities its reminder and checklist are written as and the
    /// repeat's rule.
    struct Limits {
        let title = FamilyEntities.reminder.maxLength(of: ReminderFields.title)
        let checklistText = FamilyEntities.checklistItem.maxLength(of: ReminderFields.text)
        let repeatInterval = InputBounds(WeeklyRecurrence.intervals)

        static let declared = Limits()
    }
}
