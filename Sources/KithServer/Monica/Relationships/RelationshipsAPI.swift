import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `/api/relationships` (creating one creates its reverse), `/api/contacts/{id}/relationships`,
/// `/api/relationshiptypes`, `/api/relationshiptypegroups`.
struct RelationshipsAPI {
    static let createRules = [
        FieldRules("contact_is", .required, .integer), FieldRules("of_contact", .required, .integer),
        FieldRules("relationship_type_id", .required, .integer),
    ]
    static let updateRules = [FieldRules("relationship_type_id", .required, .integer)]

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("contacts/{id}/relationships") { scope in
            let contactID = try scope.id()
            return try await scope.read { sql in
                try await ResourceSteps.ownedContact(sql, scope, contactID)
                let rows = try await MonicaQueries.all(
                    sql, RelationshipTable.table, account: scope.accountID, where: "contact_is", in: [contactID])
                return MonicaResponse.make(["data": .array(try await RelationshipTable.present(sql, scope, rows))])
            }
        }
        routes.get("relationships/{id}") { scope in try await show(scope, id: try scope.id()) }
        routes.post("relationships") { scope in try await create(scope) }
        routes.put("relationships/{id}") { scope in try await update(scope) }
        routes.delete("relationships/{id}") { scope in
            try await ResourceSteps.destroy(
                scope, RelationshipTable.table, attribute: "relationship id", answerText: true
            ) { sql, row in
                if let reverse = try await RelationshipTable.reverse(sql, scope, of: row) {
                    try await MonicaQueries.delete(
                        sql, RelationshipTable.table, account: scope.accountID, id: reverse.id)
                }
            }
        }
        let typePresenter: RowPresenter = { row, _, scope in RelationshipTable.presentType(row, scope) }
        let groupPresenter: RowPresenter = { row, _, scope in RelationshipTable.presentGroup(row, scope) }
        routes.get("relationshiptypes") { scope in
            try await ResourceSteps.list(scope, RelationshipTable.types, contactColumns: [], typePresenter)
        }
        routes.get("relationshiptypes/{id}") { scope in
            try await ResourceSteps.show(
                scope, RelationshipTable.types, id: try scope.id(), contactColumns: [], typePresenter)
        }
        routes.get("relationshiptypegroups") { scope in
            try await ResourceSteps.list(scope, RelationshipTable.groups, contactColumns: [], groupPresenter)
        }
        routes.get("relationshiptypegroups/{id}") { scope in
            try await ResourceSteps.show(
                scope, RelationshipTable.groups, id: try scope.id(), contactColumns: [], groupPresenter)
        }
    }

    private func show(_ scope: MonicaScope, id: Int64, status: HTTPResponse.Status = .ok) async throws -> Response {
        try await scope.read { sql in
            guard let row = try await MonicaQueries.find(sql, RelationshipTable.table, account: scope.accountID, id: id)
            else { throw MonicaError.notFound }
            return MonicaResponse.data(try await RelationshipTable.present(sql, scope, [row])[0], status: status)
        }
    }

    private func create(_ scope: MonicaScope) async throws -> Response {
        let input = try MonicaValidator.validate(try await scope.input(), Self.createRules)
        let contactIs = input.int("contact_is") ?? 0
        let ofContact = input.int("of_contact") ?? 0
        let typeID = input.int("relationship_type_id") ?? 0
        let created: Int64 = try await scope.write { sql in
            try await ResourceSteps.existing(sql, scope, ContactTable.table, id: contactIs, attribute: "contact is")
            try await ResourceSteps.existing(sql, scope, ContactTable.table, id: ofContact, attribute: "of contact")
            let type = try await ResourceSteps.existing(
                sql, scope, RelationshipTable.types, id: typeID, attribute: "relationship type id")
            guard contactIs != ofContact else {
                throw MonicaError.invalid("A contact can't be in a relationship with itself.")
            }
            let id = try await MonicaQueries.insert(
                sql, RelationshipTable.table, account: scope.accountID, now: scope.now,
                ["relationship_type_id": .int(typeID), "contact_is": .int(contactIs), "of_contact": .int(ofContact)])
            if let reverse = try await RelationshipTable.reverseType(sql, scope, of: type) {
                _ = try await MonicaQueries.insert(
                    sql, RelationshipTable.table, account: scope.accountID, now: scope.now,
                    [
                        "relationship_type_id": .int(reverse.id), "contact_is": .int(ofContact),
                        "of_contact": .int(contactIs),
                    ])
            }
            return id
        }
        return try await show(scope, id: created, status: .created)
    }

    /// Changes the type, and the reverse relationship's type to the new type's reverse.
    private func update(_ scope: MonicaScope) async throws -> Response {
        let raw = scope.rawID()
        guard let id = Int64(raw) else { throw MonicaError.invalid("The relationship id must be an integer.") }
        let input = try MonicaValidator.validate(try await scope.input(), Self.updateRules)
        let typeID = input.int("relationship_type_id") ?? 0
        try await scope.write { sql in
            let relationship = try await ResourceSteps.existing(
                sql, scope, RelationshipTable.table, id: id, attribute: "relationship id")
            let type = try await ResourceSteps.existing(
                sql, scope, RelationshipTable.types, id: typeID, attribute: "relationship type id")
            if let reverse = try await RelationshipTable.reverse(sql, scope, of: relationship),
                let newReverseType = try await RelationshipTable.reverseType(sql, scope, of: type)
            {
                try await MonicaQueries.update(
                    sql, RelationshipTable.table, account: scope.accountID, id: reverse.id, now: scope.now,
                    ["relationship_type_id": .int(newReverseType.id)])
            }
            try await MonicaQueries.update(
                sql, RelationshipTable.table, account: scope.accountID, id: id, now: scope.now,
                ["relationship_type_id": .int(typeID)])
        }
        return try await show(scope, id: id)
    }
}
