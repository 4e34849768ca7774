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

    /// The first day on or after `from` the reminder falls on; nil when a one-time reminder is
    /// past, or the next time is after year 9999. Integer arithmetic, checked: a stored
    /// frequency of any size (older versions accepted 2^63 - 1) answers nil, never traps.
    static func nextDate(_ row: MonicaRow, from: MonicaDate) -> MonicaDate? {
        guard let initial = row.text("initial_date").flatMap(MonicaDate.init(ymd:)) else { return nil }
        if initial >= from { return initial }
        let every = max(1, row.int("frequency_number") ?? 1)
        switch row.text("frequency_type") {
        case "week":
            guard let step = checked(every, times: 7) else { return nil }
            let behind = from.dayNumber - initial.dayNumber
            guard let days = checked(ceilDiv(behind, step), times: step),
                let dayNumber = checked(initial.dayNumber, plus: days)
            else { return nil }
            return MonicaDate(dayNumber: dayNumber)
        case "month":
            return nextByMonths(initial, every: every, from: from)
        case "year":
            return checked(every, times: 12).flatMap { nextByMonths(initial, every: $0, from: from) }
        default:
            return nil
        }
    }

    /// Every `every` months from `initial` (keeping its day, or the month's last when shorter).
    private static func nextByMonths(_ initial: MonicaDate, every: Int64, from: MonicaDate) -> MonicaDate? {
        // Counted from the start each time, so the 31st falls on each month's last day.
        let behind = max(0, from.monthNumber - initial.monthNumber)
        var steps = ceilDiv(behind, every)
        for _ in 0..<2 {
            guard let months = checked(steps, times: every), let monthNumber = checked(initial.monthNumber, plus: months),
                let date = MonicaDate(monthNumber: monthNumber, day: initial.day)
            else { return nil }
            if date >= from { return date }
            steps += 1
        }
        return nil
    }

    /// `value / divisor` rounded up, for non-negative values, without the overflow of `value + divisor - 1`.
    private static func ceilDiv(_ value: Int64, _ divisor: Int64) -> Int64 {
        value / divisor + (value % divisor == 0 ? 0 : 1)
    }

    private static func checked(_ value: Int64, times factor: Int64) -> Int64? {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? nil : product
    }

    private static func checked(_ value: Int64, plus other: Int64) -> Int64? {
        let (sum, overflow) = value.addingReportingOverflow(other)
        return overflow ? nil : sum
    }
}

/// `/api/reminders`, `/api/contacts/{id}/reminders`, `/api/reminders/upcoming/{month}`.
struct RemindersAPI {
    static let createRules = [
        FieldRules("contact_id", .required, .integer), FieldRules("initial_date", .required, .dateYMD),
        FieldRules("frequency_type", .required, .oneOf(["one_time", "week", "month", "year"])),
        FieldRules("frequency_number", .required, .integer, .between(1, 1000)), FieldRules("title", .required, .string, .max(100_000)),
        FieldRules("description", .nullable, .string, .max(1_000_000)), FieldRules("delible", .nullable, .boolean),
    ]
    static let updateRules = createRules.map {
        $0.name == "frequency_number" ? FieldRules("frequency_number", .nullable, .integer, .between(1, 1000)) : $0
    }
    /// How far ahead `upcoming/{month}` looks: a hundred years.
    static let upcomingMonths: Int64 = 1200

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
    /// next month…, at most 1200), by date. Kith computes the next date from the reminder itself (UTC).
    private func upcoming(_ scope: MonicaScope) async throws -> Response {
        guard let offset = Int64(scope.rawID("month")), (0...Self.upcomingMonths).contains(offset) else {
            throw MonicaError.notFound
        }
        let today = MonicaDate.today(nowMillis: scope.now)
        guard let startOfMonth = MonicaDate(monthNumber: today.monthNumber + offset, day: 1),
            let last = MonicaDate(monthNumber: startOfMonth.monthNumber, day: 31)
        else { return MonicaResponse.make(["data": []]) }
        let first = max(startOfMonth, today)
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
