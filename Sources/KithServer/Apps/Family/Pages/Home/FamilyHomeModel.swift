import Foundation
import KithCore

/// The family's page (family.mustache): its reminders as the filters let them through, due
/// first, and its members.
struct FamilyHomeModel: FamilyPageModel {
    static let template = "family"

    let family: FamilySummary
    let members: [MemberListItem]
    let filter: ReminderFilterChoices
    let reminders: [ReminderRow]
    let hasReminders: Bool
    /// Where a reminder's form goes back to: this page with its filters.
    let back: String

    init(_ snapshot: FamilySnapshot, filter: ReminderFilterChoices, reminders: [ReminderRow], back: String) {
        family = FamilySummary(snapshot)
        members = MemberListItem.all(snapshot)
        self.filter = filter
        self.reminders = reminders
        hasReminders = !reminders.isEmpty
        self.back = back
    }
}
