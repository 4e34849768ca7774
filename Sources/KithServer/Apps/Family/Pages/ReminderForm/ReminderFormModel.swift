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
    let repeatChoice: RepeatChoice
    /// "At a place" is chosen: its fields are the place. The server renders them either way (a
    /// page without the script shows them); family.js hides them while "Anywhere" is chosen,
    /// unless a refusal is about them.
    let usesPlace: Bool
    let placeHasErrors: Bool
    /// The reader may change only the place (a child on what a parent asked): the rest is shown
    /// disabled, as the rules would refuse it.
    let detailsLocked: Bool
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
        _ purpose: Purpose, zone: String, form: Fields, repeatChoice: RepeatChoice, usesPlace: Bool,
        detailsLocked: Bool, members: [Assignee], onlyMe: Bool, weekdays: [WeekdayChoice],
        lines: [Line], occurrences: [String], seen: [HiddenField], errors: Errors, error: String?
    ) {
        heading = purpose.heading
        action = purpose.action
        cancel = purpose.cancel
        button = purpose.button
        self.zone = zone
        self.form = form
        self.repeatChoice = repeatChoice
        self.usesPlace = usesPlace
        self.detailsLocked = detailsLocked
        placeHasErrors = errors.latitude != nil || errors.longitude != nil || errors.locationAccuracy != nil
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
        let repeatMonthDay: String
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
        var repeatFrequency: String?
        var repeatDays: String?
        var repeatMonthDay: String?
        var repeatMonthWeekday: String?
        var repeatInterval: String?
        var repeatStart: String?
        var repeatTime: String?
        var latitude: String?
        var longitude: String?
        var locationAccuracy: String?

        static var fields: [String: WritableKeyPath<Self, String?>] {
            [
                ReminderFields.title: \.title, ReminderFields.dueAt: \.dueAt, ReminderFields.assigneeId: \.assigneeId,
                ReminderFields.repeatFrequency: \.repeatFrequency, ReminderFields.repeatDays: \.repeatDays,
                ReminderFields.repeatMonthDay: \.repeatMonthDay,
                ReminderFields.repeatMonthWeekday: \.repeatMonthWeekday,
                ReminderFields.repeatInterval: \.repeatInterval, ReminderFields.repeatStart: \.repeatStart,
                ReminderFields.repeatTime: \.repeatTime,
                ReminderFields.latitude: \.latitude, ReminderFields.longitude: \.longitude,
                ReminderFields.locationAccuracy: \.locationAccuracy,
            ]
        }
    }

    /// The form's limits, from the entities its reminder and checklist are written as (the
    /// repeat's interval is the chosen frequency's, `RepeatChoice.unit`).
    struct Limits {
        let title = FamilyEntities.reminder.maxLength(of: ReminderFields.title)
        let checklistText = FamilyEntities.checklistItem.maxLength(of: ReminderFields.text)
        let monthDay = InputBounds(RepeatPattern.monthDays)

        static let declared = Limits()
    }
}
