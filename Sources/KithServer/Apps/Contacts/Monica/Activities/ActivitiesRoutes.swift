import Foundation
import Hummingbird
import KithCore

/// `/api/activities` and `/api/contacts/{id}/activities`.
struct ActivitiesRoutes {
    static let rules = [
        FieldRules("activity_type_id", .nullable, .integer), FieldRules("summary", .required, .string, .max(255)),
        FieldRules("description", .nullable, .string, .max(1_000_000)), FieldRules("happened_at", .required, .dateYMD),
        FieldRules("emotions", .nullable, .array), FieldRules("contacts", .required, .array),
    ]

    let repository: ActivityRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("activities") { call in try await page(call, attendee: nil) }
        routes.get("contacts/{id}/activities") { call in try await page(call, attendee: try call.id()) }
        routes.get("activities/{id}") { call in
            try Self.one(try await repository.find(account: call.accountID, id: try call.id()), call)
        }
        routes.post("activities") { call in try await save(call, id: nil) }
        routes.put("activities/{id}") { call in try await save(call, id: try call.id()) }
        routes.destroy("activities", attribute: "activity id", answerText: true) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
    }

    /// A page of activities (optionally of one attendee), with Monica's yearly statistics.
    private func page(_ call: MonicaRequest, attendee: Int64?) async throws -> Response {
        let page = try call.page()
        let view = try await repository.page(account: call.accountID, attendee: attendee, page)
        var envelope = PageEnvelope(
            items: Self.present(view, call.presentation), total: view.activities.total, request: page,
            path: call.indexURL)
        let statistics: JSONTree =
            view.yearlyCounts.isEmpty ? [] : .object(JSONObject(view.yearlyCounts.map { ($0.year, .int($0.count)) }))
        envelope.extraMeta = [("statistics", statistics)]
        return envelope.response
    }

    static func present(_ view: ActivitiesView, _ presentation: MonicaPresentation) -> [JSONTree] {
        view.activities.records.map { activity in
            ActivityPresenter.present(
                activity, view.related[activity.id] ?? .init(type: nil, category: nil, attendees: []), presentation)
        }
    }

    private static func one(_ view: ActivitiesView, _ call: MonicaRequest, status: HTTPResponse.Status = .ok) throws
        -> Response
    {
        guard let item = present(view, call.presentation).first, let activity = view.activities.records.first else {
            throw MonicaError.notFound
        }
        return MonicaResponse.data(item, status: status, tag: EntityTag(activity))
    }

    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        if let id { try await repository.checkExists(account: call.accountID, id: id) }
        let valid = try MonicaValidator.validate(try await call.input(), Self.rules)
        let attendees = try (valid.array("contacts") ?? []).map { item -> Int64 in
            guard let id = ValidInput.integer(item) else { throw MonicaError.invalid("The contacts must be contact ids.") }
            return id
        }
        // Kith keeps no emotions, so any emotion named is one that does not exist.
        if !(valid.array("emotions") ?? []).isEmpty { throw MonicaError.notFound }
        let input = ActivityInput(
            typeID: valid.int("activity_type_id"), summary: valid.string("summary") ?? "",
            description: valid.string("description"), happenedAt: valid.date("happened_at") ?? "", attendees: attendees)
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), input, now: call.now)
        return try Self.one(saved, call, status: id == nil ? .created : .ok)
    }
}
