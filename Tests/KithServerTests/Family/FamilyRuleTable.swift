import Foundation
import KithCore

/// Seed 003's reminder rules as one table: what each kind of person may do to a reminder that a
/// parent (the creator) made for a child (the assignee). The push test (and the web test) run
/// every row, and check that a refusal changed nothing.
enum FamilyRuleTable {
    /// Who acts, relative to the reminder.
    enum Actor: String, CaseIterable, Sendable {
        /// The parent who made it.
        case creator
        /// The child it is for.
        case assignee
        /// Another parent of the family.
        case parent
        /// Another child of the family.
        case child
        /// A parent of another family.
        case otherFamily
        /// Someone in no family.
        case noFamily
    }

    enum Action: String, CaseIterable, Sendable {
        /// A new reminder for the assignee.
        case createForAssignee
        /// A new reminder for the actor themselves.
        case createForSelf
        /// A new reminder due an hour ago.
        case createInThePast
        /// A new reminder with no title.
        case createWithoutTitle
        /// A new reminder repeating every 53 weeks.
        case createRepeatingTooRarely
        case editTitle
        /// A new due time, an hour later.
        case reschedule
        case tickItem
        case rewordItem
        case addItem
        case deleteItem
        case complete
        /// `status: completed` alone, without saying who completed it or when.
        case completeWithoutCompletedBy
        case delete
        /// A change to the reminder once the assignee completed it.
        case editCompleted
        /// Taking back the assignee's completion of a moment ago.
        case undoCompletion

        /// Whether the assignee completes the reminder before the actor acts.
        var startsCompleted: Bool { self == .editCompleted || self == .undoCompletion }
    }

    /// The code each actor meets, nil where the write is applied.
    static func expected(_ action: Action, _ actor: Actor) -> String? {
        if actor == .otherFamily || actor == .noFamily { return "forbidden" }
        switch action {
        case .createForAssignee:
            return actor == .child ? "children_assign_themselves" : nil
        case .createForSelf:
            return nil
        case .createInThePast:
            return "due_in_past"
        case .createWithoutTitle, .createRepeatingTooRarely:
            return "validation_failed"
        case .tickItem:
            return actor == .child ? "not_allowed" : nil
        case .editTitle, .reschedule, .rewordItem, .addItem, .deleteItem:
            // What a parent asked of a child is the parents' to change.
            return actor == .child || actor == .assignee ? "not_allowed" : nil
        case .complete:
            return actor == .creator || actor == .assignee ? nil : "not_allowed"
        case .completeWithoutCompletedBy:
            return actor == .creator || actor == .assignee ? "validation_failed" : "not_allowed"
        case .delete:
            return actor == .creator || actor == .parent ? nil : "not_allowed"
        case .editCompleted:
            return "completed"
        case .undoCompletion:
            return actor == .assignee ? nil : "not_allowed"
        }
    }

    static var rows: [(Action, Actor)] {
        Action.allCases.flatMap { action in Actor.allCases.map { (action, $0) } }
    }

    /// The fields of a new reminder.
    static func reminder(title: String?, due: Date, assignee: String, creator: String, now: Date) -> [String: JSONTree] {
        var fields: [String: JSONTree] = [
            "dueAt": .string(WireCoding.formatTimestamp(due)), "assigneeId": .string(assignee), "creatorId": .string(creator),
            "createdAt": .string(WireCoding.formatTimestamp(now)), "status": .string("pending"),
        ]
        if let title { fields["title"] = .string(title) }
        return fields
    }
}
