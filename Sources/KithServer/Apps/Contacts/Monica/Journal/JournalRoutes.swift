import Foundation
import Hummingbird
import KithCore

/// `/api/journal` (entries, as Monica) and `/api/journal/days` (day ratings, Kith's: Monica rates
/// days on its web pages only). The router tries a path's constant segments before its
/// parameters, so `journal/days` is never read as entry "days".
struct JournalRoutes {
    /// Monica's rules, and `string` (a title or post that is a number or a list is refused);
    /// `date` is Kith's: the day the entry is about.
    static let entryRules = [
        FieldRules("title", .required, .string, .max(255)), FieldRules("post", .required, .string, .max(1_000_000)),
        FieldRules("date", .nullable, .dateYMD),
    ]
    static let dayRules = [
        FieldRules("date", .required, .dateYMD), FieldRules("rate", .required, .integer, .between(1, 3)),
        FieldRules("comment", .nullable, .string, .max(1_000_000)),
    ]
    /// A rating keeps its day unless the change names another.
    static let dayUpdateRules = [FieldRules("date", .nullable, .dateYMD)] + dayRules.filter { $0.name != "date" }

    let repository: JournalRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.index(
            "journal/days",
            load: { call, page in
                try await repository.days(account: call.accountID, page, newestDayFirst: Self.unsorted(call))
            },
            present: JournalPresenter.day)
        routes.show(
            "journal/days", load: { try await repository.day(account: $0.accountID, id: $1) },
            present: JournalPresenter.day)
        routes.post("journal/days") { call in try await saveDay(call, id: nil) }
        routes.put("journal/days/{id}") { call in
            let id = try call.id()
            _ = try await repository.day(account: call.accountID, id: id)
            return try await saveDay(call, id: id)
        }
        routes.destroy("journal/days", attribute: nil, answerText: false) {
            try await repository.deleteDay(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }

        routes.index(
            "journal", load: { try await repository.entries(account: $0.accountID, $1) },
            present: JournalPresenter.entry)
        routes.show(
            "journal", load: { try await repository.entry(account: $0.accountID, id: $1) },
            present: JournalPresenter.entry)
        routes.post("journal") { call in try await saveEntry(call, id: nil) }
        routes.put("journal/{id}") { call in
            let id = try call.id()
            // Monica looks the entry up before it reads the input.
            _ = try await repository.entry(account: call.accountID, id: id)
            return try await saveEntry(call, id: id)
        }
        routes.destroy("journal", attribute: nil, answerText: false) {
            try await repository.deleteEntry(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    /// Whether the request names no order: day ratings then come newest day first.
    private static func unsorted(_ call: MonicaRequest) -> Bool {
        (call.request.uri.formQuery.get("sort") ?? "").isEmpty
    }

    private func saveEntry(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(try await call.input(), Self.entryRules)
        let input = EntryInput(
            title: valid.string("title") ?? "", post: valid.string("post") ?? "", date: valid.date("date"))
        let saved = try await repository.saveEntry(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return MonicaResponse.data(
            JournalPresenter.entry(saved, call.presentation), status: id == nil ? .created : .ok, tag: EntityTag(saved))
    }

    private func saveDay(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let rules = id == nil ? Self.dayRules : Self.dayUpdateRules
        let valid = try MonicaValidator.validate(try await call.input(), rules)
        let date = valid.date("date")
        // A rating is of a day that has begun somewhere: "today" is the latest calendar day on
        // Earth (UTC's plus one), so nobody's today is refused.
        if let day = date.flatMap(MonicaDate.init(ymd:)),
            day.dayNumber > MonicaDate.today(nowMillis: call.now).dayNumber + 1
        {
            throw MonicaError.invalid("The date must be a date before or equal to today.")
        }
        let input = DayInput(date: date, rate: valid.int("rate") ?? 1, comment: valid.string("comment"))
        let saved = try await repository.saveDay(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return MonicaResponse.data(
            JournalPresenter.day(saved, call.presentation), status: id == nil ? .created : .ok, tag: EntityTag(saved))
    }
}
