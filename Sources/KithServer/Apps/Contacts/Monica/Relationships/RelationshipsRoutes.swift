import Foundation
import Hummingbird
import KithCore

/// `/api/relationships` (creating one creates its reverse), `/api/contacts/{id}/relationships`,
/// `/api/relationshiptypes`, `/api/relationshiptypegroups`.
struct RelationshipsRoutes {
    static let createRules = [
        FieldRules("contact_is", .required, .integer), FieldRules("of_contact", .required, .integer),
        FieldRules("relationship_type_id", .required, .integer),
    ]
    static let updateRules = [FieldRules("relationship_type_id", .required, .integer)]

    let repository: RelationshipRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("contacts/{id}/relationships") { call in
            let view = try await repository.of(account: call.accountID, contact: try call.id())
            return MonicaResponse.make(["data": .array(Self.present(view, call.presentation))])
        }
        routes.get("relationships/{id}") { call in
            try Self.one(try await repository.find(account: call.accountID, id: try call.id()), call)
        }
        routes.post("relationships") { call in
            let valid = try MonicaValidator.validate(try await call.input(), Self.createRules)
            let created = try await repository.create(
                account: call.accountID, contactIs: valid.int("contact_is") ?? 0, ofContact: valid.int("of_contact") ?? 0,
                typeID: valid.int("relationship_type_id") ?? 0, now: call.now)
            return try Self.one(created, call, status: .created)
        }
        routes.put("relationships/{id}") { call in
            guard let id = Int64(call.rawID()) else {
                throw MonicaError.invalid("The relationship id must be an integer.")
            }
            let valid = try MonicaValidator.validate(try await call.input(), Self.updateRules)
            let updated = try await repository.update(
                account: call.accountID, id: id, ifMatch: try call.ifMatch(),
                typeID: valid.int("relationship_type_id") ?? 0, now: call.now)
            return try Self.one(updated, call)
        }
        routes.destroy("relationships", attribute: "relationship id", answerText: true) {
            try await repository.delete(account: $0.accountID, id: $1, ifMatch: try $0.ifMatch())
        }
        routes.index(
            "relationshiptypes", load: { try await repository.typePage(account: $0.accountID, $1) },
            present: RelationshipTypePresenter.present)
        routes.show(
            "relationshiptypes", load: { try await repository.type(account: $0.accountID, id: $1) },
            present: RelationshipTypePresenter.present)
        routes.index(
            "relationshiptypegroups", load: { try await repository.groupPage(account: $0.accountID, $1) },
            present: RelationshipTypePresenter.presentGroup)
        routes.show(
            "relationshiptypegroups", load: { try await repository.group(account: $0.accountID, id: $1) },
            present: RelationshipTypePresenter.presentGroup)
    }

    static func present(_ view: RelationshipsView, _ presentation: MonicaPresentation) -> [JSONTree] {
        view.relationships.map { relationship in
            RelationshipPresenter.present(
                relationship, type: view.types[relationship.relationshipTypeID],
                contactIs: view.contacts.short(relationship.contactIs, presentation),
                ofContact: view.contacts.short(relationship.ofContact, presentation), presentation)
        }
    }

    private static func one(_ view: RelationshipsView, _ call: MonicaRequest, status: HTTPResponse.Status = .ok) throws
        -> Response
    {
        guard let item = present(view, call.presentation).first, let relationship = view.relationships.first else {
            throw MonicaError.notFound
        }
        return MonicaResponse.data(item, status: status, tag: EntityTag(relationship))
    }
}
