import Foundation
import KithCore

/// Contacts and what is written on them: fields, addresses, tags, work, food; then the partial
/// contacts only relationships reach, the relationships, how each was met, avatars and `me`.
extension MonicaImport {
    func copyContacts() async throws {
        try await eachItem("contacts", [("with", "contactfields")], as: .contacts) { contact in
            try await copyContact(contact)
        }
    }

    /// One contact and what is written on it.
    func copyContact(_ contact: JSONTree) async throws {
        let id = Self.id(contact)
        contacts[id] = contact
        let name = contact["complete_name"]?.stringValue ?? contact["first_name"]?.stringValue ?? "#\(id)"
        guard
            let copied = try await copy(
                .contacts, "contact:\(id)", sourceID: id, name: name,
                {
                    try await create("contacts", contactBody(contact), $0)
                })
        else { return }

        for field in contact["contactFields"]?.arrayValue ?? contact["contact_fields"]?.arrayValue ?? [] {
            let fieldID = Self.id(field)
            let typeName = field["contact_field_type"]?["name"]?.stringValue ?? ""
            try await copy(.contactFields, "contactfield:\(fieldID)", sourceID: fieldID, name: "\(name): \(typeName)") {
                guard let type = fieldTypes[typeName] else {
                    throw Unmet(reason: "its type \(typeName) was not copied")
                }
                let labels = field["labels"]?.arrayValue?.compactMap(\.stringValue) ?? []
                return try await create(
                    "contactfields",
                    .members([
                        ("contact_id", .int(Int64(copied))), ("contact_field_type_id", .int(Int64(type))),
                        ("data", field.text("content")),
                        ("labels", labels.isEmpty ? nil : .array(labels.map(JSONTree.string))),
                    ]), $0)
            }
        }
        for address in contact["addresses"]?.arrayValue ?? [] {
            let addressID = Self.id(address)
            try await copy(.addresses, "address:\(addressID)", sourceID: addressID, name: name) {
                var body = Self.location(address)
                if case .object(var members) = body {
                    members["contact_id"] = .int(Int64(copied))
                    members["name"] = address.text("name")
                    body = .object(members)
                }
                return try await create("addresses", body, $0)
            }
        }
        try await setOnContact(contact, copied, name)
    }

    /// Tags, work and food preferences: each is set once (a repeat would change nothing, but the
    /// map keeps a second run from sending them).
    private func setOnContact(_ contact: JSONTree, _ copied: Int, _ name: String) async throws {
        let id = Self.id(contact)
        let tags = (contact["tags"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        if !tags.isEmpty {
            try await copy(.contactDetails, "tags:\(id)", sourceID: id, name: name) {
                _ = try await target.json(
                    "POST", "contacts/\(copied)/setTags", body: ["tags": .array(tags.map(JSONTree.string))],
                    idempotencyKey: $0)
                return copied
            }
        }
        let career = contact["information"]?["career"]
        if career?["job"]?.stringValue != nil || career?["company"]?.stringValue != nil, let career {
            try await copy(.contactDetails, "work:\(id)", sourceID: id, name: name) {
                _ = try await target.json(
                    "PUT", "contacts/\(copied)/work",
                    body: ["job": career.text("job"), "company": career.text("company")],
                    idempotencyKey: $0)
                return copied
            }
        }
        if let food = contact["information"]?["food_preferences"]?.stringValue, !food.isEmpty {
            try await copy(.contactDetails, "food:\(id)", sourceID: id, name: name) {
                _ = try await target.json(
                    "PUT", "contacts/\(copied)/food", body: ["food_preferences": .string(food)], idempotencyKey: $0)
                return copied
            }
        }
    }

    /// What `POST /contacts` takes of a contact: names, gender, description, birth and death
    /// dates (without the reminders a new date would make: the source's reminders are copied
    /// as they are, so they are not made twice).
    func contactBody(_ contact: JSONTree) -> JSONTree {
        var members: [(String, JSONTree?)] = [
            ("first_name", contact.text("first_name")),
            ("middle_name", contact["middle_name"].map { _ in contact.text("middle_name") }),
            ("last_name", contact.text("last_name")), ("nickname", contact.text("nickname")),
            ("description", contact.text("description")),
            ("gender_id", contact["gender"]?.stringValue.flatMap { genders[$0] }.map { .int(Int64($0)) } ?? .null),
            ("is_partial", .bool(contact.flag("is_partial") ?? false)),
            ("is_deceased", .bool(contact.flag("is_dead") ?? false)),
        ]
        let dates = contact["information"]?["dates"]
        let birth = dates?["birthdate"]?.specialDate
        members.append(("is_birthdate_known", .bool(birth != nil)))
        if let birth {
            if birth.ageBased, let year = birth.year {
                let age = LocalDate(Date(), in: .current).year - year
                members += [("birthdate_is_age_based", true), ("birthdate_age", .int(Int64(max(age, 0))))]
            } else {
                members += [
                    ("birthdate_is_age_based", false), ("birthdate_day", .int(Int64(birth.day))),
                    ("birthdate_month", .int(Int64(birth.month))),
                    ("birthdate_year", .nullable(birth.year.map(Int64.init))),
                ]
            }
            members.append(("birthdate_add_reminder", false))
        }
        let death = dates?["deceased_date"]?.specialDate
        members.append(("is_deceased_date_known", .bool(death != nil)))
        if let death {
            members += [
                ("deceased_date_day", .int(Int64(death.day))), ("deceased_date_month", .int(Int64(death.month))),
                ("deceased_date_year", .nullable(death.year.map(Int64.init))), ("deceased_date_add_reminder", false),
            ]
        }
        return .members(members)
    }

    // MARK: Links between contacts

    /// The contacts a relationship names but the contact list leaves out (Monica lists no
    /// partial contacts), then every relationship, once a pair: the target makes its reverse.
    func copyPartialContactsAndRelationships() async throws {
        var seen = Set(contacts.keys)
        var queue = Array(contacts.keys).sorted()
        var next = 0
        while next < queue.count {
            let id = queue[next]
            next += 1
            for link in Self.relationships(of: contacts[id]) where !seen.contains(link.other) {
                seen.insert(link.other)
                do {
                    let other = try await source.json("GET", "contacts/\(link.other)", [("with", "contactfields")])
                    try await copyContact(other)
                    progress(.copying(.contacts, done: contacts.count, total: nil))
                    queue.append(link.other)
                } catch MonicaClientError.notFound {
                    refuse(.contacts, link.other, "#\(link.other)", "the source server no longer has it")
                }
            }
        }

        let types = try await relationshipTypes()
        var done = 0
        for id in contacts.keys.sorted() {
            for link in Self.relationships(of: contacts[id]) {
                let pair = "pair:\(id):\(Self.word(link.type)):\(link.other)"
                let name = "\(Self.name(contacts[id])) is \(link.type) of \(Self.name(contacts[link.other]))"
                // The reverse of one already made (the target made it with it).
                if ids[pair] != nil { continue }
                let made = try await copy(.relationships, "relationship:\(link.id)", sourceID: link.id, name: name) {
                    guard let type = types[link.type.lowercased()] else {
                        throw Unmet(reason: "the target has no relationship type \(link.type)")
                    }
                    return try await create(
                        "relationships",
                        [
                            "contact_is": .int(Int64(try contact(id))),
                            "of_contact": .int(Int64(try contact(link.other))),
                            "relationship_type_id": .int(Int64(type.id)),
                        ], $0)
                }
                if let made {
                    try ids.record(pair, made)
                    if let reverse = type(types, link.type)?.reverse {
                        try ids.record("pair:\(link.other):\(Self.word(reverse)):\(id)", made)
                    }
                }
                done += 1
                progress(.copying(.relationships, done: done, total: nil))
            }
        }
    }

    private func type(_ types: [String: (id: Int, reverse: String?)], _ name: String) -> (id: Int, reverse: String?)? {
        types[name.lowercased()]
    }

    /// The target's relationship types by lower-cased name, with the name of each one's reverse.
    private func relationshipTypes() async throws -> [String: (id: Int, reverse: String?)] {
        var types: [String: (id: Int, reverse: String?)] = [:]
        var page = 1
        while true {
            let answer = try await target.jsonPage("relationshiptypes", page: page)
            for item in answer.items {
                guard let name = item["name"]?.stringValue?.lowercased() else { continue }
                types[name] = (Self.id(item), item["name_reverse_relationship"]?.stringValue)
            }
            guard answer.hasMore else { return types }
            page += 1
        }
    }

    /// A contact's relationships as its answer lists them (`information.relationships`, by
    /// group): the relationship's id, its type's name and the other contact.
    static func relationships(of contact: JSONTree?) -> [(id: Int, type: String, other: Int)] {
        guard let groups = contact?["information"]?["relationships"]?.objectValue else { return [] }
        return groups.members.flatMap { _, group in
            (group["contacts"]?.arrayValue ?? []).compactMap { entry in
                guard let id = entry["relationship"]?["id"].flatMap(MonicaClient.number),
                    let type = entry["relationship"]?["name"]?.stringValue,
                    let other = entry["contact"]?["id"].flatMap(MonicaClient.number)
                else { return nil }
                return (id, type, other)
            }
        }
    }

    static func name(_ contact: JSONTree?) -> String {
        contact?["complete_name"]?.stringValue ?? contact?["first_name"]?.stringValue ?? "a contact"
    }

    /// A type's name as one word of a map key.
    static func word(_ text: String) -> String {
        text.lowercased().addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// How each contact was met (`PUT /contacts/{id}/introduction`), after every contact is
    /// there to be the one met through.
    func copyIntroductions() async throws {
        for id in contacts.keys.sorted() {
            guard let met = contacts[id]?["information"]?["how_you_met"], let copied = ids["contact:\(id)"] else {
                continue
            }
            let through = met["first_met_through_contact"]?["id"].flatMap(MonicaClient.number)
            let date = met["first_met_date"]?.specialDate
            let story = met["general_information"]?.stringValue
            guard through != nil || date != nil || story != nil else { continue }
            try await copy(.introductions, "introduction:\(id)", sourceID: id, name: Self.name(contacts[id])) {
                var members: [(String, JSONTree?)] = [
                    ("general_information", story.map(JSONTree.string) ?? .null),
                    ("met_through_contact_id", try through.map { .int(Int64(try contact($0))) } ?? .null),
                    ("is_date_known", .bool(date != nil)), ("add_reminder", false),
                ]
                if let date {
                    members += [
                        ("is_age_based", false), ("day", .int(Int64(date.day))), ("month", .int(Int64(date.month))),
                        ("year", .nullable(date.year.map(Int64.init))),
                    ]
                }
                _ = try await target.json(
                    "PUT", "contacts/\(copied)/introduction", body: .members(members), idempotencyKey: $0)
                return copied
            }
        }
    }

    /// A contact whose avatar is one of its photos, or Gravatar, shows the same on the target.
    func copyAvatars() async throws {
        for id in contacts.keys.sorted() {
            guard let avatar = contacts[id]?["information"]?["avatar"], let copied = ids["contact:\(id)"] else {
                continue
            }
            let photo: Int?
            switch avatar["source"]?.stringValue {
            case "photo":
                // The avatar names its photo by the photo's link.
                guard let link = avatar["url"]?.stringValue, let source = photoLinks[link] else {
                    // Said, not skipped in silence: the contact would lose its picture unnoticed.
                    refuse(.avatars, id, Self.name(contacts[id]), "its profile photo is not among the account's photos")
                    continue
                }
                photo = source
            case "gravatar": photo = nil
            default: continue
            }
            try await copy(.avatars, "avatar:\(id)", sourceID: id, name: Self.name(contacts[id])) {
                var body: JSONTree = ["source": "gravatar"]
                if let photo {
                    guard let copiedPhoto = ids["photo:\(photo)"] else {
                        throw Unmet(reason: "its photo was not copied")
                    }
                    body = ["source": "photo", "photo_id": .int(Int64(copiedPhoto))]
                }
                _ = try await target.json("PUT", "contacts/\(copied)/avatar", body: body, idempotencyKey: $0)
                return copied
            }
        }
    }

    /// The contact that is the account's owner (`/me`'s `me_contact`).
    func copyMe() async throws {
        let me = try await source.json("GET", "me")
        guard let id = me["me_contact"]?["id"].flatMap(MonicaClient.number) else { return }
        try await copy(.me, "me", sourceID: id, name: Self.name(contacts[id])) {
            let copied = try contact(id)
            _ = try await target.json(
                "POST", "me/contact", body: ["contact_id": .int(Int64(copied))], idempotencyKey: $0)
            return copied
        }
    }
}
