import Foundation

/// What a create or an update of a contact changes, decoded and checked by the handler. An update
/// changes only what was sent: nil means "left as it is".
struct ContactChange: Sendable {
    /// First, middle and last name, nickname, description: the ones sent.
    var names: [String: String?] = [:]
    var isPartial: Bool?
    /// `.some(nil)`: no gender.
    var genderID: Int64??
    var birthdate: SpecialDateValue
    /// Whether the contact is dead and when, when the write said so.
    var death: (isDead: Bool, date: SpecialDateValue)?
    /// The yearly reminders of the dates: each with the day it falls on, or nil for none.
    var reminders: [DateReminder]
    /// Creation only: a uuid the client chose, and an email to keep as the first contact field.
    var uuid: UUID?
    var email: String?
}

/// A yearly reminder of one of a contact's dates: the column that keeps it, the start of its
/// title (the contact's first name follows), and the day, or nil for no reminder.
struct DateReminder: Sendable {
    let column: String
    let title: String
    let day: MonicaDate?

    static func birthday(_ day: MonicaDate?) -> DateReminder {
        DateReminder(column: "birthday_reminder_id", title: "Wish happy birthday to", day: day)
    }

    static func deathAnniversary(_ day: MonicaDate?) -> DateReminder {
        DateReminder(column: "deceased_reminder_id", title: "Anniversary of the death of", day: day)
    }

    static func firstMet(_ day: MonicaDate?) -> DateReminder {
        DateReminder(column: "first_met_reminder_id", title: "Celebrate the day you first met", day: day)
    }
}

/// How you met: who introduced you, what happened, and when.
struct IntroductionChange: Sendable {
    let metThroughContactID: Int64?
    let generalInformation: String?
    let date: SpecialDateValue
    let wantsReminder: Bool
}
