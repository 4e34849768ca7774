import KithCore

enum ContactFieldPresenter {
    static func present(
        _ record: ContactFieldRecord, type: ContactFieldTypeRecord?, contact: JSONTree?, _ presentation: MonicaPresentation
    ) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "contactfield"),
                    ("content", .string(record.data)),
                    ("contact_field_type", type.map { ContactFieldTypePresenter.present($0, presentation) } ?? .null),
                    // Kith keeps no labels on contact fields.
                    ("labels", []),
                ] + presentation.stamps(record, contact: contact)))
    }
}

enum ContactFieldTypePresenter {
    static func present(_ record: ContactFieldTypeRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.derivedUUID)), ("object", "contactfieldtype"), ("name", .string(record.name)),
                    ("fontawesome_icon", .nullable(record.fontawesomeIcon)), ("protocol", .nullable(record.protocol)),
                    ("delible", .bool(record.delible)), ("type", .nullable(record.type)),
                ] + presentation.stamps(record)))
    }
}
