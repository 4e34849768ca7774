import Foundation
import Hummingbird
import KithCore

/// `/api/reminders`, `/api/contacts/{id}/reminders`, `/api/reminders/upcoming/{month}`.
struct RemindersRoutes {
    static let createRules = [
        FieldRules("contact_id", .required, .integer), FieldRules("initial_date", .required, .dateYMD),
        FieldRules("frequency_type", .required, .oneOf(["one_time", "week", "month", "year"])),
        FieldRules("frequency_number", .required, .integer, .between(1, 1000)),
        FieldRules("title", .required, .string, .max(100_000)),
        FieldRules("description", .nullable, .string, .max(1_000_000)), FieldRules("delible", .nullable, .boolean),
    ]
    static let updateRules = createRules.map {
        $0.name == "frequency_number" ? FieldRules("frequency_number", .nullable, .integer, .between(1, 1000)) : $0
    }
    /// How far ahead `upcoming/{month}` looks: a hundred years.
    static let upcomingMonths: Int64 = 1200

    let repository: ReminderRepository

    func addRoutes(to routes: MonicaRoutes) {
        // Declared before the reminder routes, as in Monica, though the router tells them apart anyway.
        routes.get("reminders/upcoming/{month}") { call in try await upcoming(call) }
        routes.contactOwned("reminders", repository.owned, deleteAttribute: "reminder id", present: Self.present) {
            call, id in try await save(call, id: id)
        }
    }

    static let present: OwnedPresenter<ReminderRecord> = { reminder, contact, presentation in
        ReminderPresenter.present(reminder, contact: contact(reminder.contactID), presentation)
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), id == nil ? Self.createRules : Self.updateRules)
        let input = ReminderInput(
            contactID: valid.int("contact_id") ?? 0, title: valid.string("title") ?? "",
            description: valid.string("description"), initialDate: valid.date("initial_date") ?? "",
            frequencyType: valid.string("frequency_type") ?? "", frequencyNumber: valid.int("frequency_number"),
            delible: valid.bool("delible") ?? true)
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return owned(saved, call, Self.present, status: id == nil ? .created : .ok)
    }

    /// The reminders falling in a month counted from this one (0 = the rest of this month, 1 =
    /// next month…, at most 1200), by date. Kith computes the next date from the reminder itself (UTC).
    private func upcoming(_ call: MonicaRequest) async throws -> Response {
        guard let offset = Int64(call.rawID("month")), (0...Self.upcomingMonths).contains(offset) else {
            throw MonicaError.notFound
        }
        let today = MonicaDate.today(nowMillis: call.now)
        guard let startOfMonth = MonicaDate(monthNumber: today.monthNumber + offset, day: 1),
            let last = MonicaDate(monthNumber: startOfMonth.monthNumber, day: 31)
        else { return MonicaResponse.make(["data": []]) }
        let due = try await repository.upcoming(account: call.accountID, from: max(startOfMonth, today), through: last)
        let items = due.value.map { entry in
            ReminderPresenter.upcoming(
                entry.reminder, on: entry.day, contact: due.short(entry.reminder.contactID, call.presentation),
                call.presentation)
        }
        return MonicaResponse.make(["data": .array(items)])
    }
}
