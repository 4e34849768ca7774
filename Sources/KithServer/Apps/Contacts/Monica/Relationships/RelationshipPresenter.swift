import KithCore

enum RelationshipPresenter {
    static func present(
        _ record: RelationshipRecord, type: RelationshipTypeRecord?, contactIs: JSONTree?, ofContact: JSONTree?,
        _ presentation: MonicaPresentation
    ) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.derivedUUID)), ("object", "relationship"), ("contact_is", .nullable(contactIs)),
                    ("relationship_type", .nullable(type.map { RelationshipTypePresenter.present($0, presentation) })),
                    ("of_contact", .nullable(ofContact)), ("url", .string(presentation.url("relationships/\(record.id)"))),
                ] + presentation.stamps(record)))
    }
}
