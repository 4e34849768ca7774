import Foundation
import KithCore
import KithKit

/// How `kith contacts` prints for people (without --json).
enum ContactsText {
    /// One contact on one line: id, star, name, nickname, job and company, last interaction.
    static func line(_ contact: MonicaContact, idWidth: Int = 0) -> String {
        let id = String(contact.id)
        var line = String(repeating: " ", count: max(idWidth - id.count, 0)) + id
        line += contact.isStarred ? " ★ " : "   "
        line += contact.displayName
        if let nickname = contact.nickname, !nickname.isEmpty, !contact.displayName.contains(nickname) {
            line += " (\(nickname))"
        }
        if let work = work(contact) { line += " · \(work)" }
        if let last = contact.lastInteraction { line += " · last contact \(RelativeDate.text(last))" }
        return line
    }

    static func lines(_ contacts: [MonicaContact]) -> [String] {
        let width = contacts.map { String($0.id).count }.max() ?? 0
        return contacts.map { line($0, idWidth: width) }
    }

    /// "Carpenter at Acme", "Carpenter", "Acme".
    static func work(_ contact: MonicaContact) -> String? {
        let job = contact.job.flatMap { $0.isEmpty ? nil : $0 }
        let company = contact.company.flatMap { $0.isEmpty ? nil : $0 }
        switch (job, company) {
        case (let job?, let company?): return "\(job) at \(company)"
        case (let job?, nil): return job
        case (nil, let company?): return company
        default: return nil
        }
    }

    /// An address as a block: "#11 Home" then its lines, indented.
    static func address(_ address: MonicaAddress, pending: Set<Int>, indent: String = "") -> String {
        var head = "\(indent)#\(address.id)"
        if let label = address.name, !label.isEmpty { head += " \(label)" }
        if address.isPending || pending.contains(address.id) { head += " (saved on this device, not sent yet)" }
        var lines = [head] + address.postal.lines.map { "\(indent)  \($0)" }
        if let point = address.postal.coordinates { lines.append("\(indent)  \(point.latitude), \(point.longitude)") }
        return lines.joined(separator: "\n")
    }

    static func refusal(_ failed: FailedAddressEdit) -> String {
        let what =
            switch failed.action {
            case .create: "adding an address to contact \(failed.contactID)"
            case .update: "changing address #\(failed.addressID) of contact \(failed.contactID)"
            case .delete: "deleting address #\(failed.addressID) of contact \(failed.contactID)"
            }
        return "\(what): \(failed.message)"
    }

    /// A contact's whole page.
    static func details(_ details: ContactDetails, pending: Set<Int>) -> String {
        let contact = details.contact
        var out: [String] = []
        out.append(
            "\(contact.displayName) (#\(contact.id))" + (contact.isStarred ? " ★" : "") + (contact.isDead ? " †" : ""))
        func field(_ name: String, _ value: String?) {
            if let value, !value.isEmpty { out.append("\(name): \(value)") }
        }
        field("Nickname", contact.nickname)
        field("Work", work(contact))
        field("Gender", contact.gender)
        if let birthdate = contact.information?.dates?.birthdate, let day = birthdate.date {
            field(
                "Birthday", birthdate.isYearUnknown ? String(format: "%02d-%02d", day.month, day.day) : day.description)
        }
        field("Emails", contact.emails.joined(separator: ", "))
        field("Phones", contact.phones.joined(separator: ", "))
        field("Tags", contact.tags.map(\.name).joined(separator: ", "))
        field("Last contact", contact.lastInteraction.map(RelativeDate.moment))
        field("How we met", contact.information?.howYouMet?.generalInformation)
        field("Food preferences", contact.information?.foodPreferences)
        field("Description", contact.description)

        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            out.append("")
            out.append(title)
            out.append(contentsOf: items)
        }
        section("Relationships", details.related.map { "  \($0.name): \($0.contact.displayName) (#\($0.contact.id))" })
        section("Addresses", details.addresses.map { address($0, pending: pending, indent: "  ") })
        section(
            "Notes",
            details.notes.map { note in
                let when = note.createdAt.map { " (\(RelativeDate.text($0)))" } ?? ""
                return "  \(note.isFavorited ? "★" : "-") \(oneLine(note.body))\(when)"
            })
        section(
            "Tasks",
            details.tasks.map { task in
                var line = "  [\(task.completed ? "x" : " ")] \(task.title)"
                if let description = task.description, !description.isEmpty { line += " — \(oneLine(description))" }
                if task.completed, let done = task.completedAt { line += " (done \(RelativeDate.text(done)))" }
                return line
            })
        section(
            details.hasMoreActivities ? "Activities (the 10 most recent)" : "Activities",
            details.activities.map { activity in
                var line = "  " + (activity.happenedAt.map(RelativeDate.day) ?? "undated") + "  \(activity.summary)"
                if let type = activity.activityType?.name, !type.isEmpty { line += " (\(type))" }
                let others = activity.attendees.filter { $0.id != contact.id }.map(\.displayName)
                if !others.isEmpty { line += " with \(others.joined(separator: ", "))" }
                return line
            })
        section(
            "Gifts",
            details.gifts.map { gift in
                var line = "  \(gift.name) (\(gift.status)"
                if let amount = gift.amount { line += ", \(amount)" }
                if let date = gift.date { line += ", \(date)" }
                line += ")"
                if let url = gift.url, !url.isEmpty { line += " \(url)" }
                return line
            })
        section(
            "Reminders",
            details.reminders.map { reminder in
                var line = "  \(reminder.title): \(reminder.frequencyText.lowercased())"
                if let day = reminder.initialDate { line += " from \(day)" }
                return line
            })
        let name = contact.firstName ?? contact.displayName
        section(
            "Calls",
            details.calls.map { call in
                var line = "  " + (call.calledAt.map(RelativeDate.moment) ?? "undated")
                line += call.contactCalled ? "  \(name) called" : "  you called"
                if let content = call.content, !content.isEmpty { line += ": \(oneLine(content))" }
                return line
            })
        section(
            "Conversations",
            details.conversations.map { conversation in
                var line = "  " + (conversation.happenedAt.map(RelativeDate.moment) ?? "undated")
                if let medium = conversation.contactFieldType?.name, !medium.isEmpty { line += " (\(medium))" }
                let count = conversation.messages.count
                line += ", \(count) message\(count == 1 ? "" : "s")"
                if let last = conversation.messages.last { line += ": \(oneLine(last.content, limit: 60))" }
                return line
            })
        section(
            "Debts",
            details.debts.map { debt in
                var line = "  " + (debt.youOwe ? "You owe \(name) \(debt.amount)" : "\(name) owes you \(debt.amount)")
                if let reason = debt.reason, !reason.isEmpty { line += " for \(oneLine(reason, limit: 60))" }
                if debt.isSettled { line += " (settled)" }
                return line
            })
        section("Pets", details.pets.map { "  \($0.name.map { "\($0), " } ?? "")\($0.kind.lowercased())" })
        section(
            "Life events",
            details.lifeEvents.map { event in
                var line = "  " + (event.happenedAt.map(RelativeDate.day) ?? "undated")
                line +=
                    "  "
                    + [event.lifeEventType?.name, event.name].compactMap { $0 }.filter { !$0.isEmpty }
                    .joined(separator: ": ")
                if let note = event.note, !note.isEmpty { line += " — \(oneLine(note, limit: 60))" }
                return line
            })
        return out.joined(separator: "\n")
    }

    /// Text on one line, shortened to `limit` characters.
    static func oneLine(_ text: String, limit: Int = 80) -> String {
        let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return flat.count > limit ? flat.prefix(limit - 1) + "…" : flat
    }
}
