import KithCore

enum RelationshipTypePresenter {
    static func present(_ record: RelationshipTypeRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("object", "relationshiptype"), ("name", .string(record.name)),
                    ("name_reverse_relationship", .string(record.nameReverseRelationship)),
                    ("relationship_type_group_id", .nullable(record.relationshipTypeGroupID)),
                    ("delible", .bool(record.delible)),
                ] + presentation.stamps(record)))
    }

    static func presentGroup(_ record: RelationshipTypeGroupRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("object", "relationshiptypegroup"), ("name", .string(record.name)),
                    ("delible", .bool(record.delible)),
                ] + presentation.stamps(record)))
    }
}
