import Foundation
import KithCore

/// One reminder as the list and its own page show it, and what the reader may do with it.
struct ReminderRow {
    let id: String
    let title: String
    let due: String
    let dueISO: String
    let assignee: String
    let isMine: Bool
    let creator: String
    let isCompleted: Bool
    let isOverdue: Bool
    let status: String
    let items: [ChecklistRow]
    let hasItems: Bool
    /// "1 of 3 done".
    let progress: String
    /// What the reader may do, as `FamilyRules` judge it (`ReminderPermissions`); a list row asks
    /// only about Done.
    let mayComplete: Bool
    let mayEdit: Bool
    /// Only the place may be changed (a child on what a parent asked): the edit link says so.
    let mayOnlySetPlace: Bool
    let placeAction: String
    let mayTick: Bool
    let mayDelete: Bool
    /// "Every 2 weeks on Mon, Wed at 07:30", when it repeats.
    let `repeat`: String?
    /// Who last completed it, and when.
    let completion: String?

    struct ChecklistRow {
        let id: String
        let text: String
        let done: Bool
    }

    init(_ reminder: FamilyReminder, _ snapshot: FamilySnapshot, now: Date, today: LocalDate, fully: Bool = true) {
        let zone = snapshot.timeZone
        id = reminder.id.lowercased
        title = reminder.title
        due = FamilyFormat.moment(reminder.dueAt, in: zone, today: today)
        dueISO = WireCoding.formatTimestamp(reminder.dueAt)
        assignee = snapshot.name(of: reminder.assigneeId)
        isMine = reminder.assigneeId == snapshot.me
        creator = snapshot.name(of: reminder.creatorId)
        isCompleted = reminder.status == .completed
        isOverdue = reminder.status == .pending && LocalDate(reminder.dueAt, in: zone) < today
        status = reminder.status == .completed ? "Completed" : "Pending"
        items = reminder.checklist.map { ChecklistRow(id: $0.id.lowercased, text: $0.text, done: $0.done) }
        hasItems = !reminder.checklist.isEmpty
        progress = "\(reminder.checklist.filter(\.done).count) of \(reminder.checklist.count) done"
        let may = snapshot.permissions(reminder, now: now)
        mayComplete = may.complete
        mayEdit = fully && may.editDetails
        mayOnlySetPlace = fully && !mayEdit && may.setPlace
        placeAction = reminder.location == nil ? "Set the place" : "Change the place"
        mayTick = fully && may.tick
        mayDelete = fully && may.delete
        `repeat` = snapshot.recurrences[reminder.id]?.summary
        if let by = reminder.completedBy, let at = reminder.completedAt {
            let when = FamilyFormat.moment(at, in: zone, today: today)
            completion =
                reminder.status == .completed
                ? "Completed by \(snapshot.name(of: by)) · \(when)" : "Last done by \(snapshot.name(of: by)) · \(when)"
        } else {
            completion = nil
        }
    }
}
