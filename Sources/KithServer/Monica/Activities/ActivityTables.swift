import Foundation
import KithCore
import SQLKit

/// `monica_activities` and their attendees in `monica_activity_contacts`.
enum ActivityTable {
    static let table = MonicaTable(
        name: "monica_activities",
        columns: [
            .init("uuid", .text), .init("activity_type_id", .int), .init("summary", .text), .init("description", .text),
            .init("happened_at", .text),
        ])

    /// Each contact's most recent activity day, as midnight UTC milliseconds.
    static func lastActivity(_ sql: any SQLDatabase, of contactIDs: [Int64]) async throws -> [Int64: Int64] {
        guard !contactIDs.isEmpty else { return [:] }
        let rows = try await sql.select().column(SQLColumn("contact_id", table: "ac"))
            .column(SQLFunction("MAX", args: SQLColumn("happened_at", table: "a")), as: "last")
            .from(SQLAlias(SQLIdentifier("monica_activity_contacts"), as: SQLIdentifier("ac")))
            .join(
                SQLAlias(SQLIdentifier(table.name), as: SQLIdentifier("a")), on: SQLColumn("activity_id", table: "ac"),
                .equal, SQLColumn("id", table: "a")
            )
            .where(SQLColumn("contact_id", table: "ac"), .in, SQLBind.group(contactIDs))
            .groupBy(SQLColumn("contact_id", table: "ac")).all()
        var last: [Int64: Int64] = [:]
        for row in rows {
            let day = try row.decode(column: "last", as: String.self)
            guard let date = MonicaDate(ymd: day) else { continue }
            last[try row.decode(column: "contact_id", as: Int64.self)] = date.epochMillis
        }
        return last
    }

    /// Attendees of each activity, in the order they were added.
    static func attendees(_ sql: any SQLDatabase, of activityIDs: [Int64]) async throws -> [Int64: [Int64]] {
        guard !activityIDs.isEmpty else { return [:] }
        let rows = try await sql.select().columns("activity_id", "contact_id").from("monica_activity_contacts")
            .where("activity_id", .in, SQLBind.group(activityIDs)).orderBy("contact_id").all()
        var attendees: [Int64: [Int64]] = [:]
        for row in rows {
            attendees[try row.decode(column: "activity_id", as: Int64.self), default: []].append(
                try row.decode(column: "contact_id", as: Int64.self))
        }
        return attendees
    }

    /// Activities per year, newest year first, over the whole account (as Monica's lists add).
    static func yearlyStatistics(_ sql: any SQLDatabase, account: Int64) async throws -> JSONTree {
        let rows = try await sql.raw(
            """
            SELECT SUBSTR(happened_at, 1, 4) AS year, COUNT(*) AS n FROM monica_activities
            WHERE account_id = \(bind: account) GROUP BY SUBSTR(happened_at, 1, 4) ORDER BY year DESC
            """
        ).all()
        guard !rows.isEmpty else { return [] }
        return .object(
            JSONObject(
                try rows.map {
                    (try $0.decode(column: "year", as: String.self), .int(try $0.decode(column: "n", as: Int64.self)))
                }))
    }
}

/// `monica_activity_types` and `monica_activity_type_categories`. Monica's default ones carry a
/// translation key and no name; their name is the English text of the key.
enum ActivityTypeTable {
    static let table = MonicaTable(
        name: "monica_activity_types",
        columns: [
            .init("activity_type_category_id", .int), .init("name", .text), .init("translation_key", .text),
            .init("location_type", .text),
        ], stampsMayBeNull: true)
    static let categories = MonicaTable(
        name: "monica_activity_type_categories", columns: [.init("name", .text), .init("translation_key", .text)],
        stampsMayBeNull: true)

    /// Category key and name, then its types: key, name.
    static let defaults: [(key: String, name: String, types: [(key: String, name: String)])] = [
        (
            "simple_activities", "Simple activities",
            [
                ("just_hung_out", "just hung out"), ("watched_movie_at_home", "watched a movie at home"),
                ("talked_at_home", "just talked at home"),
            ]
        ),
        ("sport", "Sport", [("did_sport_activities_together", "did sport together")]),
        (
            "food", "Food",
            [
                ("ate_at_his_place", "ate at their place"), ("went_bar", "went to a bar"),
                ("ate_at_home", "ate at home"),
                ("picknicked", "picknicked"), ("ate_restaurant", "ate at a restaurant"),
            ]
        ),
        (
            "cultural_activities", "Cultural activities",
            [
                ("went_theater", "went to the theater"), ("went_concert", "went to a concert"),
                ("went_play", "went to a play"),
                ("went_museum", "went to the museum"),
            ]
        ),
    ]

    static func name(_ row: MonicaRow) -> JSONTree {
        if let name = row.text("name") { return .string(name) }
        guard let key = row.text("translation_key") else { return .null }
        for category in defaults {
            if category.key == key { return .string(category.name) }
            if let type = category.types.first(where: { $0.key == key }) { return .string(type.name) }
        }
        return .string(key)
    }

    static func presentCategory(_ row: MonicaRow, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [("id", .int(row.id)), ("object", "activityTypeCategory"), ("name", name(row))] + row.stamps(scope)))
    }

    static func present(_ row: MonicaRow, category: MonicaRow?, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("object", "activityType"), ("name", name(row)),
                    ("location_type", .nullable(row.text("location_type"))),
                    ("activity_type_category", category.map { presentCategory($0, scope) } ?? .null),
                ] + row.stamps(scope)))
    }

    static func seed(_ sql: any SQLDatabase, account: Int64) async throws {
        for category in defaults {
            let categoryID = try await insertUnstamped(
                sql, categories.name, ["account_id": .int(account), "translation_key": .text(category.key)])
            for type in category.types {
                _ = try await insertUnstamped(
                    sql, table.name,
                    [
                        "account_id": .int(account), "activity_type_category_id": .int(categoryID),
                        "translation_key": .text(type.key),
                    ])
            }
        }
    }

    /// Monica copies its default types without timestamps; so does Kith, so they answer null.
    static func insertUnstamped(_ sql: any SQLDatabase, _ table: String, _ values: [String: DBValue]) async throws
        -> Int64
    {
        let pairs = Array(values)
        guard
            let row = try await sql.insert(into: table).columns(pairs.map(\.key)).values(pairs.map { SQLBind($0.value) })
                .returning("id").first()
        else { throw MonicaStorageError("insert into \(table) returned no id") }
        return try row.decode(column: "id", as: Int64.self)
    }
}
