import KithCore

enum PetPresenter {
    static func present(_ record: PetRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "pet"),
                    ("name", .nullable(record.name)),
                    ("pet_category", .nullable(PetCategories.named(id: record.petCategoryID).map(category))),
                ] + presentation.stamps(record, contact: contact)))
    }

    static func category(_ category: PetCategory) -> JSONTree {
        [
            "id": .int(category.id), "object": "pet_category", "name": .string(category.name),
            "is_common": .bool(category.isCommon),
        ]
    }
}
