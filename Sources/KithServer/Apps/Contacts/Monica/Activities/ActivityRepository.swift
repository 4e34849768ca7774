import Foundation
import KithCore
import SQLKit

/// An activity's fields as a write gives them.
struct ActivityInput: Sendable {
    let typeID: Int64?
    let summary: String
    let description: String?
    let happenedAt: String
    let attendees: [Int64]
}

/// Activities with what they show: their types, categories and attendees.
struct ActivitiesView: Sendable {
    var activities: RecordPage<ActivityRecord>
    var related: [Int64: ActivityPresenter.Related]
    /// Monica's `meta.statistics`: activities per year over the whole account, newest first.
    var yearlyCounts: [(year: String, count: Int64)] = []
}

struct ActivityRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    /// A page of the account's activities, or of those a contact attended (another account's
    /// contact is 404), with the yearly statistics.
    func page(account: Int64, attendee contactID: Int64?, _ page: PageRequest) async throws -> ActivitiesView {
        try await reading(account) { storage in
            if let contactID { _ = try await storage.contacts.require(contactID) }
            let attended = contactID.map {
                linked("id", through: "monica_activity_contacts", select: "activity_id", where: "contact_id", is: $0)
            }
            let found = try await storage.table(ActivityRecord.self).page(page, filter: attended)
            var view = try await Self.view(found, storage)
            view.yearlyCounts = try await Self.yearlyCounts(storage)
            return view
        }
    }

    func find(account: Int64, id: Int64) async throws -> ActivitiesView {
        try await reading(account) { storage in
            let activity = try await storage.table(ActivityRecord.self).require(id)
            return try await Self.view(RecordPage(records: [activity], total: 1), storage)
        }
    }

    func checkExists(account: Int64, id: Int64) async throws {
        _ = try await reading(account) { storage in
            try await storage.table(ActivityRecord.self).existing(id, attribute: "activity id")
        }
    }

    /// Creates an activity (nil `id`) or changes activity `id` (if it is still a version `ifMatch`
    /// names); its attendees become the ones named.
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: ActivityInput, now: Int64) async throws
        -> ActivitiesView
    {
        try await writing(account) { storage in
            if let id { try await storage.check(ifMatch, ActivityRecord.self, id: id) }
            for contactID in input.attendees { _ = try await storage.contacts.require(contactID) }
            if let typeID = input.typeID {
                _ = try await storage.table(ActivityTypeRecord.self).existing(typeID, attribute: "activity type id")
            }
            let activities = storage.table(ActivityRecord.self)
            var values: MonicaColumns = [
                "activity_type_id": .int(input.typeID), "summary": .text(input.summary),
                "description": .text(input.description), "happened_at": .text(input.happenedAt),
            ]
            let saved: ActivityRecord
            if let id {
                saved = try await activities.update(id, values, now: now)
            } else {
                values["uuid"] = .text(ids.text())
                saved = try await activities.insert(values, now: now)
            }
            try await storage.sql.delete(from: "monica_activity_contacts").where("activity_id", .equal, saved.id).run()
            for contactID in Set(input.attendees) {
                try await storage.sql.insert(into: "monica_activity_contacts")
                    .columns("activity_id", "contact_id", "account_id")
                    .values(SQLBind(saved.id), SQLBind(contactID), SQLBind(account)).run()
            }
            return try await Self.view(RecordPage(records: [saved], total: 1), storage)
        }
    }

    func delete(account: Int64, id: Int64, ifMatch: IfMatch?) async throws {
        try await writing(account) { storage in
            try await storage.check(ifMatch, ActivityRecord.self, id: id)
            let activities = storage.table(ActivityRecord.self)
            _ = try await activities.existing(id, attribute: "activity id")
            try await activities.delete(id)
        }
    }

    private static func view(_ activities: RecordPage<ActivityRecord>, _ storage: MonicaStorage) async throws
        -> ActivitiesView
    {
        let ids = activities.records.map(\.id)
        var attendees: [Int64: [Int64]] = [:]
        if !ids.isEmpty {
            for row in try await storage.sql.select().columns("activity_id", "contact_id").from("monica_activity_contacts")
                .where(SQLQueryString("activity_id \(in: ids)")).orderBy("contact_id").all()
            {
                attendees[try row.decode(column: "activity_id", as: Int64.self), default: []].append(
                    try row.decode(column: "contact_id", as: Int64.self))
            }
        }
        let contacts = try await storage.details.summaries(attendees.values.flatMap { $0 })
        let types = try await storage.table(ActivityTypeRecord.self).byID(activities.records.compactMap(\.activityTypeID))
        let categories = try await storage.table(ActivityTypeCategoryRecord.self).byID(
            types.values.map(\.activityTypeCategoryID))
        var related: [Int64: ActivityPresenter.Related] = [:]
        for activity in activities.records {
            let type = activity.activityTypeID.flatMap { types[$0] }
            related[activity.id] = ActivityPresenter.Related(
                type: type, category: type.flatMap { categories[$0.activityTypeCategoryID] },
                attendees: (attendees[activity.id] ?? []).compactMap { contacts[$0] })
        }
        return ActivitiesView(activities: activities, related: related)
    }

    private static func yearlyCounts(_ storage: MonicaStorage) async throws -> [(year: String, count: Int64)] {
        try await storage.sql.raw(
            """
            SELECT SUBSTR(happened_at, 1, 4) AS year, COUNT(*) AS n FROM monica_activities
            WHERE account_id = \(bind: storage.account) GROUP BY SUBSTR(happened_at, 1, 4) ORDER BY year DESC
            """
        ).all().map { (try $0.decode(column: "year", as: String.self), try $0.decode(column: "n", as: Int64.self)) }
    }
}
