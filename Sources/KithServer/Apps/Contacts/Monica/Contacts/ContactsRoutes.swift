import Foundation
import Hummingbird
import KithCore

/// `/api/contacts`: the index and search, one contact, create, update, delete, and the work,
/// food and introduction sub-resources.
struct ContactsRoutes {
    static let nameRules = [
        FieldRules("first_name", .required, .string, .max(255)),
        FieldRules("middle_name", .nullable, .string, .max(255)),
        FieldRules("last_name", .nullable, .string, .max(255)), FieldRules("nickname", .nullable, .string, .max(255)),
    ]
    static let dateRules = [
        FieldRules("is_birthdate_known", .required, .boolean), FieldRules("birthdate_day", .nullable, .integer),
        FieldRules("birthdate_month", .nullable, .integer), FieldRules("birthdate_year", .nullable, .integer),
        FieldRules("birthdate_is_age_based", .nullable, .boolean), FieldRules("birthdate_age", .nullable, .integer),
        FieldRules("birthdate_add_reminder", .nullable, .boolean),
    ]
    static let deceasedRules = [
        FieldRules("is_deceased_date_known", .required, .boolean), FieldRules("deceased_date_day", .nullable, .integer),
        FieldRules("deceased_date_month", .nullable, .integer), FieldRules("deceased_date_year", .nullable, .integer),
        FieldRules("deceased_date_add_reminder", .nullable, .boolean),
    ]
    static let createRules =
        [FieldRules("uuid", .nullable, .string)] + nameRules + [
            FieldRules("email", .nullable, .string, .max(255), .email), FieldRules("gender_id", .nullable, .integer),
            FieldRules("description", .nullable, .string, .max(255)), FieldRules("is_partial", .nullable, .boolean),
        ] + dateRules + [FieldRules("is_deceased", .required, .boolean)] + deceasedRules
    static let updateRules =
        [FieldRules("uuid", .nullable, .string)] + nameRules + [
            FieldRules("gender_id", .nullable, .integer), FieldRules("description", .nullable, .string, .max(255)),
            FieldRules("is_partial", .nullable, .boolean),
        ] + dateRules + [FieldRules("is_deceased", .nullable, .boolean)] + deceasedRules
    /// Monica's two, and Kith's name orders (`ContactIndex`).
    static let sortable: Set<String> = ["created_at", "updated_at", "first_name", "last_name"]
    private static let introductionRules = [
        FieldRules("met_through_contact_id", .nullable, .integer),
        FieldRules("general_information", .nullable, .string, .max(65535)),
        FieldRules("where", .nullable, .string, .max(255)),
        FieldRules("is_date_known", .required, .boolean), FieldRules("is_age_based", .nullable, .boolean),
        FieldRules("day", .nullable, .integer), FieldRules("month", .nullable, .integer),
        FieldRules("year", .nullable, .integer),
        FieldRules("age", .nullable, .integer), FieldRules("add_reminder", .nullable, .boolean),
    ]

    let repository: ContactRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("contacts") { call in try await index(call) }
        routes.get("contacts/{id}") { call in try await Self.show(repository, call, id: try call.id()) }
        routes.post("contacts") { call in try await save(call, id: nil) }
        routes.put("contacts/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("contacts", attribute: nil, answerText: true) {
            try await repository.delete(account: $0.account, id: $1, ifMatch: try $0.ifMatch())
        }
        routes.put("contacts/{id}/work") { call in
            try await setAbout(
                call,
                rules: [
                    FieldRules("job", .nullable, .string, .max(255)),
                    FieldRules("company", .nullable, .string, .max(255)),
                ]
            ) { valid in ["job": valid.string("job"), "company": valid.string("company")] }
        }
        routes.put("contacts/{id}/food") { call in
            try await setAbout(call, rules: [FieldRules("food_preferences", .nullable, .string, .max(65535))]) {
                valid in ["food_preferences": valid.string("food_preferences")]
            }
        }
        routes.put("contacts/{id}/introduction") { call in try await introduction(call) }
        routes.post("contacts/{id}/merge") { call in try await merge(call) }
    }

    /// Kith's: contact `contact_id` merged into this one (`ContactRepository.merge`); the kept
    /// contact in full.
    private func merge(_ call: MonicaRequest) async throws -> Response {
        let id = try call.id()
        let raw = try await call.input()
        try await repository.requireExists(account: call.accountID, id: id)
        let valid = try MonicaValidator.validate(raw, [FieldRules("contact_id", .required, .integer)])
        let details = try await repository.merge(
            account: call.account, keptID: id, otherID: valid.int("contact_id") ?? 0, ifMatch: try call.ifMatch(),
            now: call.now, withContactFields: call.withContactFields)
        return Self.answer(details, call)
    }

    /// `{"data": Contact}` for one of the caller's contacts (partial ones in their reduced form).
    static func show(_ repository: ContactRepository, _ call: MonicaRequest, id: Int64) async throws -> Response {
        let details = try await repository.details(
            account: call.accountID, id: id, withContactFields: call.withContactFields)
        return answer(details, call)
    }

    /// One contact in full, with its version as `ETag`.
    static func answer(_ details: ContactDetails, _ call: MonicaRequest, status: HTTPResponse.Status = .ok)
        -> Response
    {
        MonicaResponse.data(
            ContactPresenter.full(details, call.presentation), status: status, tag: EntityTag(details.record))
    }

    private func index(_ call: MonicaRequest) async throws -> Response {
        let page = try call.page(sortable: Self.sortable)
        let rawQuery = call.request.uri.formQuery.get("query") ?? ""
        // NUL can match nothing stored, and PostgreSQL refuses it in a bound value.
        let query = (rawQuery.removingPercentEncoding ?? rawQuery).replacingOccurrences(of: "\u{0}", with: "")
        let isSearch = !query.trimmingCharacters(in: .whitespaces).isEmpty
        let found =
            isSearch
            ? try await repository.search(
                account: call.account, query: query, page, withContactFields: call.withContactFields)
            : try await repository.list(account: call.account, page, withContactFields: call.withContactFields)
        var envelope = PageEnvelope(
            items: found.records.map { ContactPresenter.full($0, call.presentation) }, total: found.total,
            request: page, path: call.indexURL)
        if isSearch { envelope.extraMeta = [("query", .string(query))] }
        return envelope.response
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(
            try await call.input(), id == nil ? Self.createRules : Self.updateRules)
        let birthdate = SpecialDateInput(
            known: valid.bool("is_birthdate_known") ?? false, ageBased: valid.bool("birthdate_is_age_based") ?? false,
            day: valid.int("birthdate_day"), month: valid.int("birthdate_month"), year: valid.int("birthdate_year"),
            age: valid.int("birthdate_age"))
        let deceasedDate = SpecialDateInput(
            known: valid.bool("is_deceased_date_known") ?? false, ageBased: false, day: valid.int("deceased_date_day"),
            month: valid.int("deceased_date_month"), year: valid.int("deceased_date_year"), age: nil)
        let problems = birthdate.problems() + deceasedDate.problems()
        if !problems.isEmpty { throw MonicaError.invalid(problems) }

        let today = MonicaDate.today(nowMillis: call.now)
        let birthdateValue = try birthdate.value(today: today, attribute: "birthdate")
        var change = ContactChange(
            birthdate: birthdateValue,
            reminders: [
                .birthday(
                    birthdate.known && !birthdate.ageBased && valid.bool("birthdate_add_reminder") == true
                        ? birthdateValue.day : nil)
            ])
        for name in ["first_name", "middle_name", "last_name", "nickname", "description"]
        where id == nil || valid.has(name) {
            change.names[name] = valid.string(name)
        }
        if id == nil || valid.has("is_partial") { change.isPartial = valid.bool("is_partial") ?? false }
        if id == nil || valid.has("gender_id") { change.genderID = .some(valid.int("gender_id")) }
        // Left out of an update, the death fields stay as they were (Monica failed with a 500).
        if let deceased = valid.bool("is_deceased") {
            let known = deceased && deceasedDate.known
            let date = try SpecialDateInput(
                known: known, ageBased: false, day: deceasedDate.day, month: deceasedDate.month,
                year: deceasedDate.year,
                age: nil
            ).value(today: today, attribute: "deceased date")
            change.death = (deceased, date)
            change.reminders.append(
                .deathAnniversary(known && valid.bool("deceased_date_add_reminder") == true ? date.day : nil))
        }
        change.uuid = valid.string("uuid").flatMap(UUID.init(text:))
        change.email = valid.string("email")
        let ifMatch = try call.ifMatch()
        let details =
            try await id.asyncMap {
                try await repository.update(
                    account: call.accountID, id: $0, ifMatch: ifMatch, change, now: call.now,
                    withContactFields: call.withContactFields)
            }
            .asyncOr {
                try await repository.create(
                    account: call.accountID, change, now: call.now, withContactFields: call.withContactFields)
            }
        return Self.answer(details, call, status: id == nil ? .created : .ok)
    }

    /// Work and food: real (not partial) contacts only; omitted fields become empty.
    private func setAbout(
        _ call: MonicaRequest, rules: [FieldRules], values: @escaping @Sendable (ValidInput) -> [String: String?]
    ) async throws -> Response {
        let id = try call.id()
        let raw = try await call.input()
        try await repository.requireExists(account: call.accountID, id: id)
        let valid = try MonicaValidator.validate(raw, rules)
        let details = try await repository.setAbout(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), values(valid), now: call.now,
            withContactFields: call.withContactFields)
        return Self.answer(details, call)
    }

    /// How you met: who introduced you, what happened, and when (a date, or an age).
    private func introduction(_ call: MonicaRequest) async throws -> Response {
        let id = try call.id()
        let raw = try await call.input()
        try await repository.requireExists(account: call.accountID, id: id)
        let valid = try MonicaValidator.validate(raw, Self.introductionRules)
        let date = SpecialDateInput(
            known: valid.bool("is_date_known") ?? false, ageBased: valid.bool("is_age_based") ?? false,
            day: valid.int("day"), month: valid.int("month"), year: valid.int("year"), age: valid.int("age"))
        let problems = date.problems()
        if !problems.isEmpty { throw MonicaError.invalid(problems) }
        try await repository.requireNotPartial(account: call.accountID, id: id)
        let change = IntroductionChange(
            metThroughContactID: valid.int("met_through_contact_id"),
            generalInformation: valid.string("general_information"),
            date: try date.value(today: MonicaDate.today(nowMillis: call.now), attribute: "date"),
            wantsReminder: date.known && !date.ageBased && valid.bool("add_reminder") == true)
        let details = try await repository.setIntroduction(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), change, now: call.now,
            withContactFields: call.withContactFields)
        return Self.answer(details, call)
    }
}
