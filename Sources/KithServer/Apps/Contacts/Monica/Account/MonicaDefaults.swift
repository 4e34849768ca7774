import SQLKit

/// What every new Monica account starts with, as `Account::populateDefaultFields` gives it.
enum MonicaDefaults {
    static let genders: [(name: String, type: String)] = [("Man", "M"), ("Woman", "F"), ("Rather not say", "O")]

    /// Name, Font Awesome icon, link protocol, deletable, kind. Monica's migration meant to give
    /// Twitter and LinkedIn their profile links missed them; these are the intended links.
    static let contactFieldTypes: [(name: String, icon: String, protocol: String?, delible: Bool, type: String?)] = [
        ("Email", "fa fa-envelope-open-o", "mailto:", false, "email"),
        ("Phone", "fa fa-volume-control-phone", "tel:", false, "phone"),
        ("Facebook", "fa fa-facebook-official", "https://facebook.com/", true, nil),
        ("Twitter", "fa fa-twitter-square", "https://twitter.com/", true, nil),
        ("Whatsapp", "fa fa-whatsapp", "https://wa.me/", true, nil),
        ("Telegram", "fa fa-telegram", "telegram:", true, nil),
        ("LinkedIn", "fa fa-linkedin-square", "https://linkedin.com/in/", true, nil),
    ]

    static func seed(_ storage: MonicaStorage, now: Int64) async throws {
        for gender in genders {
            try await storage.table(GenderRecord.self).insert(
                ["name": .text(gender.name), "type": .text(gender.type)], now: now)
        }
        for type in contactFieldTypes {
            try await storage.table(ContactFieldTypeRecord.self).insert(
                [
                    "name": .text(type.name), "fontawesome_icon": .text(type.icon), "protocol": .text(type.protocol),
                    "delible": .bool(type.delible), "type": .text(type.type),
                ], now: now)
        }
        // Monica copies its default activity types and relationship groups without times.
        for category in ActivityTypeDefaults.all {
            let saved = try await storage.table(ActivityTypeCategoryRecord.self).insert(
                ["translation_key": .text(category.key)], now: nil)
            for type in category.types {
                try await storage.table(ActivityTypeRecord.self).insert(
                    ["activity_type_category_id": .int(saved.id), "translation_key": .text(type.key)], now: nil)
            }
        }
        try await LifeEventDefaults.seed(storage)
        var groups: [String: Int64] = [:]
        for name in RelationshipTypeDefaults.groupNames {
            groups[name] =
                try await storage.table(RelationshipTypeGroupRecord.self).insert(
                    ["name": .text(name), "delible": .bool(false)], now: nil
                ).id
        }
        for type in RelationshipTypeDefaults.types {
            try await storage.table(RelationshipTypeRecord.self).insert(
                [
                    "name": .text(type.name), "name_reverse_relationship": .text(type.reverse),
                    "relationship_type_group_id": .int(groups[type.group]), "delible": .bool(false),
                ], now: now)
        }
    }
}
