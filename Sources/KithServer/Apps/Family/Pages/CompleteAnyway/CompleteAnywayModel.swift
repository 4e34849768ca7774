import Foundation
import KithCore

/// The question before completing a reminder whose checklist has unticked items
/// (family-complete-anyway.mustache): which ones, **Complete anyway** (the same form again, with
/// `anyway=1`) or **Cancel**. A page, so it asks without the script too.
struct CompleteAnywayModel: FamilyPageModel {
    static let template = "family-complete-anyway"

    /// "2 items are not ticked: Milk, Bread. Complete anyway?"
    let question: String
    let title: String
    let items: [String]
    let action: String
    /// Where the completion goes back to, and where Cancel leads.
    let back: String

    init(_ reminder: FamilyReminder, back: String) {
        let texts = reminder.unticked.map(\.text)
        question = ReminderOperations.untickedQuestion(texts)
        title = reminder.title
        items = texts
        action = "/family/reminders/\(reminder.id.lowercased)/complete"
        self.back = back
    }
}
