import Foundation
import KithCore
import SQLKit

/// Monica's default relationship types: group, then name and the name of the reverse type.
enum RelationshipTypeDefaults {
    static let groupNames = ["love", "family", "friend", "work"]

    static let types: [(group: String, name: String, reverse: String)] = [
        ("love", "partner", "partner"), ("love", "spouse", "spouse"), ("love", "date", "date"),
        ("love", "lover", "lover"),
        ("love", "inlovewith", "lovedby"), ("love", "lovedby", "inlovewith"), ("love", "ex", "ex"),
        ("family", "parent", "child"), ("family", "child", "parent"), ("family", "sibling", "sibling"),
        ("family", "grandparent", "grandchild"), ("family", "grandchild", "grandparent"), ("family", "uncle", "nephew"),
        ("family", "nephew", "uncle"), ("family", "cousin", "cousin"), ("family", "godfather", "godson"),
        ("family", "godson", "godfather"), ("friend", "friend", "friend"), ("friend", "bestfriend", "bestfriend"),
        ("work", "colleague", "colleague"), ("work", "boss", "subordinate"), ("work", "subordinate", "boss"),
        ("work", "mentor", "protege"), ("work", "protege", "mentor"), ("family", "stepparent", "stepchild"),
        ("family", "stepchild", "stepparent"), ("love", "ex_husband", "ex_husband"),
    ]

    static func seed(_ sql: any SQLDatabase, account: Int64, now: Int64) async throws {
        var groupIDs: [String: Int64] = [:]
        for name in groupNames {
            groupIDs[name] = try await ActivityTypeTable.insertUnstamped(
                sql, RelationshipTable.groups.name,
                ["account_id": .int(account), "name": .text(name), "delible": .bool(false)])
        }
        for type in types {
            _ = try await MonicaQueries.insert(
                sql, RelationshipTable.types, account: account, now: now,
                [
                    "name": .text(type.name), "name_reverse_relationship": .text(type.reverse),
                    "relationship_type_group_id": .int(groupIDs[type.group]), "delible": .bool(false),
                ])
        }
    }
}

/// `monica_relationships` (each has its reverse), `monica_relationship_types`, `monica_relationship_type_groups`.
enum RelationshipTable {
    static let table = MonicaTable(
        name: "monica_relationships",
        columns: [.init("relationship_type_id", .int), .init("contact_is", .int), .init("of_contact", .int)])
    static let types = MonicaTable(
        name: "monica_relationship_types",
        columns: [
            .init("name", .text), .init("name_reverse_relationship", .text), .init("relationship_type_group_id", .int),
            .init("delible", .bool),
        ])
    static let groups = MonicaTable(
        name: "monica_relationship_type_groups", columns: [.init("name", .text), .init("delible", .bool)],
        stampsMayBeNull: true)

    static func presentType(_ row: MonicaRow, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("object", "relationshiptype"), ("name", .nullable(row.text("name"))),
                    ("name_reverse_relationship", .nullable(row.text("name_reverse_relationship"))),
                    ("relationship_type_group_id", .nullable(row.int("relationship_type_group_id"))),
                    ("delible", .bool(row.bool("delible"))),
                ] + row.stamps(scope)))
    }

    static func presentGroup(_ row: MonicaRow, _ scope: MonicaScope) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(row.id)), ("object", "relationshiptypegroup"), ("name", .nullable(row.text("name"))),
                    ("delible", .bool(row.bool("delible"))),
                ] + row.stamps(scope)))
    }

    static func present(_ sql: any SQLDatabase, _ scope: MonicaScope, _ rows: [MonicaRow]) async throws -> [JSONTree] {
        let shorts = try await ContactShorts.load(
            sql, scope, ids: rows.flatMap { [$0.int("contact_is"), $0.int("of_contact")].compactMap { $0 } })
        let typeRows = try await MonicaQueries.all(
            sql, types, account: scope.accountID, where: "id", in: rows.compactMap { $0.int("relationship_type_id") })
        let typeByID = Dictionary(uniqueKeysWithValues: typeRows.map { ($0.id, $0) })
        return rows.map { row in
            .object(
                JSONObject(
                    [
                        ("id", .int(row.id)), ("object", "relationship"),
                        ("contact_is", .nullable(row.int("contact_is").flatMap { shorts[$0] })),
                        (
                            "relationship_type",
                            .nullable(
                                row.int("relationship_type_id").flatMap { typeByID[$0] }.map { presentType($0, scope) })
                        ),
                        ("of_contact", .nullable(row.int("of_contact").flatMap { shorts[$0] })),
                        ("url", .string(scope.url("relationships/\(row.id)"))),
                    ] + row.stamps(scope)))
        }
    }

    /// Each contact's relationships by group (love, family…), for full contacts.
    static func nest(
        _ sql: any SQLDatabase, _ scope: MonicaScope, _ contactIDs: [Int64], presenter: ContactPresenter,
        into nesting: inout ContactNesting
    ) async throws {
        let groupRows = try await sql.select().column("*").from(groups.name).where(
            "account_id", .equal, scope.accountID
        )
        .all().map(groups.read)
        nesting.existingGroups = Set(groupRows.compactMap { $0.text("name") })
        let relationships = try await MonicaQueries.all(
            sql, table, account: scope.accountID, where: "contact_is", in: contactIDs)
        guard !relationships.isEmpty else { return }
        let typeRows = try await MonicaQueries.all(
            sql, types, account: scope.accountID, where: "id",
            in: relationships.compactMap { $0.int("relationship_type_id") })
        let typeByID = Dictionary(uniqueKeysWithValues: typeRows.map { ($0.id, $0) })
        let groupName = Dictionary(uniqueKeysWithValues: groupRows.map { ($0.id, $0.text("name") ?? "") })
        let others = try await ContactShorts.load(
            sql, scope, ids: relationships.compactMap { $0.int("of_contact") }, presenter: presenter)
        for relationship in relationships {
            guard let type = relationship.int("relationship_type_id").flatMap({ typeByID[$0] }),
                let group = type.int("relationship_type_group_id").flatMap({ groupName[$0] }),
                let contact = relationship.int("of_contact").flatMap({ others[$0] }),
                let owner = relationship.int("contact_is")
            else { continue }
            nesting.relationshipGroups[owner, default: [:]][group, default: []].append(
                [
                    "relationship": ["id": .int(relationship.id), "name": .nullable(type.text("name"))],
                    "contact": contact,
                ])
        }
    }

    /// The type whose name is this type's reverse name, if the account has one.
    static func reverseType(_ sql: any SQLDatabase, _ scope: MonicaScope, of type: MonicaRow) async throws -> MonicaRow?
    {
        guard let name = type.text("name_reverse_relationship") else { return nil }
        return try await sql.select().column("*").from(types.name).where("account_id", .equal, scope.accountID)
            .where("name", .equal, name).orderBy("id").first().map(types.read)
    }

    /// The reverse of a relationship: the other way round, with the reverse of its type.
    static func reverse(_ sql: any SQLDatabase, _ scope: MonicaScope, of relationship: MonicaRow) async throws
        -> MonicaRow?
    {
        guard
            let type = try await MonicaQueries.find(
                sql, types, account: scope.accountID, id: relationship.int("relationship_type_id") ?? 0),
            let reverseType = try await reverseType(sql, scope, of: type)
        else { return nil }
        return try await sql.select().column("*").from(table.name).where("account_id", .equal, scope.accountID)
            .where("contact_is", .equal, relationship.int("of_contact") ?? 0)
            .where("of_contact", .equal, relationship.int("contact_is") ?? 0)
            .where("relationship_type_id", .equal, reverseType.id).orderBy("id").first().map(table.read)
    }
}
