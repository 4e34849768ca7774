import Foundation
import Hummingbird
import KithCore

/// `/api/lifeevents`, and Kith's additions: a contact's life events
/// (`/api/contacts/{id}/lifeevents`) and the types and categories to choose from
/// (`/api/lifeeventtypes`, `/api/lifeeventcategories`), which Monica's API never lists although
/// a new life event must name a type.
struct LifeEventsRoutes {
    static let createRules = [
        FieldRules("contact_id", .required, .integer), FieldRules("life_event_type_id", .required, .integer),
        FieldRules("happened_at", .required, .instant), FieldRules("name", .nullable, .string, .max(255)),
        FieldRules("note", .nullable, .string, .max(1_000_000)), FieldRules("has_reminder", .required, .boolean),
        FieldRules("happened_at_month_unknown", .required, .boolean),
        FieldRules("happened_at_day_unknown", .required, .boolean),
    ]
    static let updateRules = [
        FieldRules("life_event_type_id", .required, .integer), FieldRules("happened_at", .required, .instant),
        FieldRules("name", .nullable, .string, .max(255)), FieldRules("note", .nullable, .string, .max(1_000_000)),
    ]

    let repository: LifeEventRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("lifeevents") { call in try await page(call, ofContact: nil) }
        routes.get("contacts/{id}/lifeevents") { call in try await page(call, ofContact: try call.id()) }
        routes.get("lifeevents/{id}") { call in
            try Self.one(try await repository.find(account: call.accountID, id: try call.id()), call)
        }
        // Monica answers a new life event with 200, not 201 (its service fetches it again).
        routes.post("lifeevents") { call in try await save(call, id: nil) }
        routes.put("lifeevents/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("lifeevents", attribute: nil, answerText: false) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
        routes.get("lifeeventtypes") { call in
            let kinds = try await repository.kinds(account: call.accountID)
            return MonicaResponse.make([
                "data": .array(kinds.map { LifeEventPresenter.presentType($0, call.presentation) })
            ])
        }
        routes.get("lifeeventcategories") { call in
            let categories = try await repository.categories(account: call.accountID)
            return MonicaResponse.make([
                "data": .array(categories.map { LifeEventPresenter.presentCategory($0, call.presentation) })
            ])
        }
    }

    private func page(_ call: MonicaRequest, ofContact contactID: Int64?) async throws -> Response {
        let page = try call.page()
        let view = try await repository.page(account: call.accountID, ofContact: contactID, page)
        return ownedPage(view.events, page, call, Self.presenter(view))
    }

    private static func presenter(_ view: LifeEventsView) -> OwnedPresenter<LifeEventRecord> {
        { event, contact, presentation in
            LifeEventPresenter.present(
                event, kind: view.kinds[event.lifeEventTypeID], contact: contact(event.contactID), presentation)
        }
    }

    private static func one(_ view: LifeEventsView, _ call: MonicaRequest) throws -> Response {
        guard let event = view.events.value.records.first else { throw MonicaError.notFound }
        return owned(WithContacts(value: event, contacts: view.events.contacts), call, presenter(view))
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(
            try await call.input(), id == nil ? Self.createRules : Self.updateRules)
        let happenedAt = valid.instant("happened_at").flatMap(MonicaDate.init(utcMillis:))?.ymd ?? ""
        let input = LifeEventInput(
            contactID: valid.int("contact_id") ?? 0, typeID: valid.int("life_event_type_id") ?? 0,
            happenedAt: happenedAt, name: valid.string("name"), note: valid.string("note"),
            hasReminder: valid.bool("has_reminder") ?? false,
            monthUnknown: valid.bool("happened_at_month_unknown") ?? false,
            dayUnknown: valid.bool("happened_at_day_unknown") ?? false)
        return try Self.one(
            try await repository.save(
                account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now),
            call)
    }
}
