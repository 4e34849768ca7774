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

    static func seed(_ sql: any SQLDatabase, account: Int64, now: Int64) async throws {
        for gender in genders {
            _ = try await MonicaQueries.insert(
                sql, GenderTable.table, account: account, now: now,
                ["name": .text(gender.name), "type": .text(gender.type)])
        }
        for type in contactFieldTypes {
            _ = try await MonicaQueries.insert(
                sql, ContactFieldTypeTable.table, account: account, now: now,
                [
                    "name": .text(type.name), "fontawesome_icon": .text(type.icon), "protocol": .text(type.protocol),
                    "delible": .bool(type.delible), "type": .text(type.type),
                ])
        }
        try await ActivityTypeTable.seed(sql, account: account)
        try await RelationshipTypeDefaults.seed(sql, account: account, now: now)
    }
}
