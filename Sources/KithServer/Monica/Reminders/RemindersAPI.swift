import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `monica_reminders`: once, or every N weeks, months or years from an initial date.
enum ReminderTable {
    static let table = MonicaTable(
        name: "monica_reminders",
        columns: [
            .init("uuid", .text), .init("contact_id", .int), .init("title", .text), .init("description", .text),
            .init("initial_date", .text), .init("frequency_type", .text), .init("frequency_number", .int),
            .init("delible", .bool),
        ])

    static func fields(_ row: MonicaRow) -> [(String, JSONTree)] {
        [
            ("title", .nullable(row.text("title"))), ("description", .nullable(row.text("description"))),
            ("frequency_type", .nullable(row.text("frequency_type"))),
            ("frequency_number", .nullable(row.int("frequency_number"))),
            ("initial_date", .nullable(row.text("initial_date").flatMap(MonicaDate.init(ymd:))?.midnightTimestamp)),
            ("delible", .bool(row.bool("delible"))),
        ]
    }

    static let presenter: RowPresenter = { row, shorts, scope in
        .object(
            JSONObject(
                [("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "reminder")] + fields(row)
                    + row.stamps(scope, contact: row.int("contact_id").flatMap { shorts[$0] })))
    }

    /// The first day on or after `from` the reminder falls on; nil when a one-time reminder is past.
    static func nextDate(_ row: MonicaRow, from: MonicaDate) -> MonicaDate? {
        guard let initial = row.text("initial_date").flatMap(MonicaDate.init(ymd:)) else { return nil }
        let every = max(1, Int(row.int("frequency_number") ?? 1))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: initial.year, month: initial.month, day: initial.day))!
        let component: Calendar.Component
        switch row.text("frequency_type") {
        case "week": component = .weekOfYear
        case "month": component = .month
        case "year": component = .year
        default: return initial >= from ? initial : nil
        }
        var step = 0
        while true {
            // Counting from the start each time keeps the 31st of a month on each month's last day.
            guard let date = calendar.date(byAdding: component, value: step * every, to: start) else { return nil }
            let day = MonicaDate(utc: date)
            if day >= from { return day }
            step += 1
            if step > 100_000 { return nil }
        }
    }
}

/// `/api/reminders`, `/api/contacts/{id}/reminders`, `/api/reminders/upcoming/{month}`.
struct RemindersAPI {
    static let createRules = [
        FieldRules("contact_id", .required, .integer), FieldRules("initial_date", .required, .dateYMD),
        FieldRules("frequency_type", .required, .oneOf(["one_time", "week", "month", "year"])),
        FieldRules("frequency_number", .required, .integer), FieldRules("title", .required, .string, .max(100_000)),
        FieldRules("description", .nullable, .string, .max(1_000_000)), FieldRules("delible", .nullable, .boolean),
    ]
    static let updateRules = createRules.map {
        $0.name == "frequency_number" ? FieldRules("frequency_number", .nullable, .integer) : $0
    }

    func addRoutes(to routes: MonicaRoutes) {
        // Declared before the reminder routes, as in Monica, though the router tells them apart anyway.
        routes.get("reminders/upcoming/{month}") { scope in try await upcoming(scope) }
        routes.contactChild("reminders", ReminderTable.table, present: ReminderTable.presenter, save: save) { scope in
            try await ResourceSteps.destroy(scope, ReminderTable.table, attribute: "reminder id", answerText: false)
        }
    }

    private func save(_ scope: MonicaScope, id: Int64?) async throws -> Response {
        let input = try MonicaValidator.validate(
            try await scope.input(), id == nil ? Self.createRules : Self.updateRules)
        let contactID = input.int("contact_id") ?? 0
        let values: [String: DBValue] = [
            "contact_id": .int(contactID), "title": .text(input.string("title")),
            "description": .text(input.string("description")), "initial_date": .text(input.date("initial_date")),
            "frequency_type": .text(input.string("frequency_type")),
            "frequency_number": .int(input.int("frequency_number")), "delible": .bool(input.bool("delible") ?? true),
        ]
        let saved: Int64 = try await scope.write { sql in
            if let id {
                try await ResourceSteps.existing(sql, scope, ReminderTable.table, id: id, attribute: "reminder id")
            }
            try await ResourceSteps.existing(sql, scope, ContactTable.table, id: contactID, attribute: "contact id")
            return try await MonicaQueries.save(
                sql, ReminderTable.table, account: scope.accountID, id: id, now: scope.now, values)
        }
        return try await ResourceSteps.show(
            scope, ReminderTable.table, id: saved, status: id == nil ? .created : .ok, ReminderTable.presenter)
    }

    /// The reminders falling in a month counted from this one (0 = the rest of this month, 1 =
    /// next month…), by date. Kith computes the next date from the reminder itself (UTC).
    private func upcoming(_ scope: MonicaScope) async throws -> Response {
        guard let offset = Int(scope.rawID("month")), offset >= 0, offset <= 1200 else { throw MonicaError.notFound }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let now = Date(timeIntervalSince1970: Double(scope.now) / 1000)
        let today = MonicaDate(utc: now)
        let monthStart = calendar.date(
            byAdding: .month, value: offset,
            to: calendar.date(from: DateComponents(year: today.year, month: today.month, day: 1))!)!
        let first = max(MonicaDate(utc: monthStart), today)
        let startOfMonth = MonicaDate(utc: monthStart)
        let last = MonicaDate(
            year: startOfMonth.year, month: startOfMonth.month,
            day: MonicaDate.days(inMonth: startOfMonth.month, year: startOfMonth.year))!
        return try await scope.read { sql in
            let rows = try await sql.select().column("*").from(ReminderTable.table.name)
                .where("account_id", .equal, scope.accountID).all().map(ReminderTable.table.read)
            let due = rows.compactMap { row -> (MonicaDate, MonicaRow)? in
                guard let next = ReminderTable.nextDate(row, from: first), next <= last else { return nil }
                return (next, row)
            }.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }
            let shorts = try await ContactShorts.load(sql, scope, ids: due.compactMap { $0.1.int("contact_id") })
            let items: [JSONTree] = due.map { date, row in
                .object(
                    JSONObject(
                        [
                            ("id", .int(row.id)), ("reminder_id", .int(row.id)), ("object", "reminder"),
                            ("planned_date", .string(date.midnightTimestamp)),
                        ] + ReminderTable.fields(row)
                            + row.stamps(scope, contact: row.int("contact_id").flatMap { shorts[$0] })))
            }
            return MonicaResponse.make(["data": .array(items)])
        }
    }
}
