import Foundation
import KithCore
import KithKit

/// `--json` of `kith family`: the family with its members (emails when the server answered).
struct FamilyJSON: Encodable {
    struct Member: Encodable {
        let userId: String
        let displayName: String
        let role: String
        let email: String?
    }

    let id: String
    let name: String
    let timeZone: String
    /// The caller's role.
    let role: String
    /// How often one occurrence of a reminder may be snoozed.
    let snoozeLimit: Int64
    let members: [Member]

    init(_ family: FamilyDTO) {
        id = family.id
        name = family.name
        timeZone = family.timeZone
        role = family.role.rawValue
        snoozeLimit = family.snoozeLimit
        members = family.members.map {
            Member(userId: $0.userId.lowercased(), displayName: $0.displayName, role: $0.role.rawValue, email: $0.email)
        }
    }

    init(_ family: LocalFamily) {
        id = family.id
        name = family.name
        timeZone = family.timeZone.identifier
        role = family.myRole.rawValue
        snoozeLimit = family.snoozeLimit
        members = family.members.map {
            Member(userId: $0.id, displayName: $0.displayName, role: $0.role.rawValue, email: nil)
        }
    }
}

/// `--json` of `kith reminders`: a reminder with its people named and its checklist numbered as
/// ITEM takes it (from 1).
struct ReminderJSON: Encodable {
    struct Person: Encodable {
        let userId: String
        /// Nil for someone no longer in the family.
        let displayName: String?
    }

    struct Item: Encodable {
        let number: Int
        let id: String
        let text: String
        let done: Bool
    }

    let id: String
    let title: String
    let dueAt: Date
    let status: String
    let assignee: Person
    let creator: Person
    let completedAt: Date?
    let completedBy: Person?
    /// The RFC 5545 rule when it repeats.
    let repeats: String?
    let checklist: [Item]
    /// This occurrence's snoozes: how many so far, how many the family's limit leaves, until when.
    let snoozeCount: Int64
    let snoozesLeft: Int64
    let snoozedUntil: Date?
    /// Where it is to be done, when set.
    let place: Place?
    /// When its person moved more than 20 m away from `place` (tracking stopped then).
    let movedAt: Date?

    struct Place: Encodable {
        let latitude: Double
        let longitude: Double
        /// Metres.
        let accuracy: Double
        let capturedAt: Date?
        /// Whether readings are still judged against it.
        let tracking: Bool
    }

    init(_ reminder: FamilyReminder, in family: LocalFamily) {
        func person(_ id: String) -> Person { Person(userId: id, displayName: family.member(id)?.displayName) }
        id = reminder.id.lowercased
        title = reminder.title
        dueAt = reminder.dueAt
        status = reminder.status.rawValue
        assignee = person(reminder.assigneeId)
        creator = person(reminder.creatorId)
        completedAt = reminder.completedAt
        completedBy = reminder.completedBy.map(person)
        repeats = reminder.repeatRule
        checklist = reminder.checklist.enumerated().map {
            Item(number: $0.offset + 1, id: $0.element.id.lowercased, text: $0.element.text, done: $0.element.done)
        }
        snoozeCount = reminder.snoozeCount
        snoozesLeft = FamilyText.snoozesLeft(reminder, in: family)
        snoozedUntil = reminder.snoozedUntil
        place = reminder.location.map {
            Place(
                latitude: $0.point.latitude, longitude: $0.point.longitude, accuracy: $0.accuracy,
                capturedAt: $0.capturedAt, tracking: $0.tracking)
        }
        movedAt = reminder.movedAt
    }
}
