import Foundation
import KithCore
import KithKit

/// How a family and its reminders read in a terminal. Times are shown in the family's time zone,
/// where recurrences are counted.
enum FamilyText {
    /// "Lovelaces (Europe/Berlin), you are a parent" and a line per member.
    static func family(_ family: FamilyJSON, me: String?) -> String {
        let width = family.members.map(\.displayName.count).max() ?? 0
        let lines = family.members.map { member in
            let name = member.displayName.padding(toLength: width, withPad: " ", startingAt: 0)
            let email = member.email.map { "  \($0)" } ?? ""
            let you = member.userId == me ? "  (you)" : ""
            return "  \(name)  \(member.role.padding(toLength: 6, withPad: " ", startingAt: 0))\(email)\(you)"
        }
        return (["\(family.name) (\(family.timeZone)), you are a \(family.role)"] + lines).joined(separator: "\n")
    }

    /// "3f2a9c1e  Wed 2026-11-25 07:30  Bins out  for Cleo · every week on Mon, Wed at 07:30" and the
    /// checklist, numbered as ITEM takes it.
    static func reminder(_ reminder: FamilyReminder, in family: LocalFamily) -> String {
        var parts = [
            "\(reminder.id.lowercased.prefix(8))  \(when(reminder.dueAt, in: family.timeZone))  \(reminder.title)",
            "for \(name(reminder.assigneeId, in: family))",
        ]
        if let summary = reminder.recurrence?.summary {
            parts.append(summary.prefix(1).lowercased() + summary.dropFirst())
        }
        if reminder.status == .completed {
            let by = reminder.completedBy.map { " by \(name($0, in: family))" } ?? ""
            parts.append("done\(by)")
        }
        if reminder.status == .pending, reminder.snoozeCount > 0, let until = reminder.snoozedUntil {
            parts.append("snoozed until \(when(until, in: family.timeZone))")
        }
        if let location = reminder.location {
            parts.append("at " + place(location.point.latitude, location.point.longitude, accuracy: location.accuracy))
        }
        if let moved = reminder.movedAt { parts.append("moved away \(when(moved, in: family.timeZone))") }
        let items = reminder.checklist.enumerated().map { index, item in
            "          \(index + 1). [\(item.done ? "x" : " ")] \(item.text)"
        }
        return ([parts.joined(separator: "  · ")] + items).joined(separator: "\n")
    }

    static func reminders(_ reminders: [FamilyReminder], in family: LocalFamily) -> String {
        guard !reminders.isEmpty else { return "No reminders." }
        return reminders.map { reminder($0, in: family) }.joined(separator: "\n")
    }

    /// "Snoozed Feed the cat until Wed 2026-11-25 07:40; 2 snoozes left."
    static func snoozed(_ reminder: FamilyReminder, in family: LocalFamily) -> String {
        let until = reminder.snoozedUntil.map { " until \(when($0, in: family.timeZone))" } ?? ""
        let left = snoozesLeft(reminder, in: family)
        let count = "\(left == 0 ? "no" : String(left)) snooze\(left == 1 ? "" : "s")"
        return "Snoozed \(reminder.title)\(until); \(count) left."
    }

    /// How many more times this occurrence may be snoozed.
    static func snoozesLeft(_ reminder: FamilyReminder, in family: LocalFamily) -> Int64 {
        max(0, family.snoozeLimit - reminder.snoozeCount)
    }

    /// "52.520008, 13.404954 (±8 m)".
    static func place(_ latitude: Double, _ longitude: Double, accuracy: Double) -> String {
        String(format: "%.6f, %.6f (±%.0f m)", latitude, longitude, accuracy)
    }

    /// "Wed 2026-11-25 07:30".
    static func when(_ date: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEE yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    static func name(_ userId: String, in family: LocalFamily) -> String {
        family.member(userId)?.displayName ?? "a former member"
    }
}
