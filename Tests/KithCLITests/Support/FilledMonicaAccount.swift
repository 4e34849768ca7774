import Foundation
import Testing

/// An account with one or more of every kind of object Monica's API serves, linked as people
/// link them (a gift for one contact from another, a photo as a contact's avatar and on a
/// gift, a conversation in a custom medium), and the account as a whole, read back without
/// what differs from server to server (ids, times made, addresses of files), for comparing two
/// accounts.
enum FilledMonicaAccount {
    /// The PNG and PDF the account keeps.
    static let photo = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGMAAQAABQABDQottAAAAABJRU5ErkJggg==")!
    static let document = Data("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n".utf8)

    static func fill(_ api: MonicaAPI) async throws {
        let woman = try await api.id(in: "genders", named: "Woman")
        let nonbinary = try await id(api.object("POST", "genders", ["name": "Nonbinary", "type": "O"]))
        let email = try await api.id(in: "contactfieldtypes", named: "Email")
        let mastodon = try await id(
            api.object(
                "POST", "contactfieldtypes",
                ["name": "Mastodon", "fontawesome_icon": "fa fa-mastodon", "protocol": "https://"]))
        let sports = try await id(api.object("POST", "activitytypecategories", ["name": "Sports"]))
        let climbing = try await id(
            api.object("POST", "activitytypes", ["name": "Climbing", "activity_type_category_id": sports]))
        let acme = try await id(
            api.object(
                "POST", "companies", ["name": "Acme", "website": "https://acme.example", "number_of_employees": 12]))
        try await api.send(
            "POST", "places",
            ["street": "12 rue de Rivoli", "city": "Paris", "country": "FR", "latitude": 48.8559, "longitude": 2.3578])

        let noDates: [String: Any] = [
            "is_birthdate_known": false, "is_deceased": false, "is_deceased_date_known": false,
        ]
        let ada = try await id(
            api.object(
                "POST", "contacts",
                noDates.merging([
                    "first_name": "Ada", "last_name": "Lovelace", "nickname": "Enchantress", "gender_id": woman,
                    "description": "Analyst of the engine", "is_birthdate_known": true, "birthdate_day": 10,
                    "birthdate_month": 12, "birthdate_year": 1815, "birthdate_add_reminder": true,
                ]) { $1 }))
        let charles = try await id(
            api.object(
                "POST", "contacts",
                noDates.merging([
                    "first_name": "Charles", "last_name": "Babbage", "gender_id": nonbinary, "is_deceased": true,
                    "is_deceased_date_known": true, "deceased_date_day": 18, "deceased_date_month": 10,
                    "deceased_date_year": 1871,
                ]) { $1 }))
        let grace = try await id(api.object("POST", "contacts", noDates.merging(["first_name": "Grace"]) { $1 }))
        let annabella = try await id(
            api.object("POST", "contacts", noDates.merging(["first_name": "Annabella", "is_partial": true]) { $1 }))

        try await api.send(
            "POST", "contactfields", ["contact_id": ada, "contact_field_type_id": email, "data": "ada@example.com"])
        try await api.send(
            "POST", "contactfields",
            ["contact_id": ada, "contact_field_type_id": mastodon, "data": "@ada@example.social"])
        try await api.send(
            "POST", "contactfields", ["contact_id": grace, "contact_field_type_id": email, "data": "grace@example.com"])
        try await api.send("PUT", "contacts/\(grace)/avatar", ["source": "gravatar"])
        try await api.send(
            "POST", "addresses",
            [
                "contact_id": ada, "name": "Home", "street": "St James's Square", "city": "London", "country": "GB",
                "latitude": 51.5074, "longitude": -0.1341,
            ])
        try await api.send("POST", "contacts/\(ada)/setTags", ["tags": ["math", "friends"]])
        try await api.send("PUT", "contacts/\(ada)/work", ["job": "Analyst", "company": "Acme"])
        try await api.send("PUT", "contacts/\(ada)/food", ["food_preferences": "Tea, no sugar"])
        try await api.send(
            "PUT", "contacts/\(grace)/introduction",
            [
                "met_through_contact_id": ada, "general_information": "At a lecture", "is_date_known": true, "day": 2,
                "month": 1, "year": 2020,
            ])
        let parent = try await api.id(in: "relationshiptypes", named: "parent")
        let friend = try await api.id(in: "relationshiptypes", named: "friend")
        try await api.send(
            "POST", "relationships", ["contact_is": annabella, "of_contact": ada, "relationship_type_id": parent])
        try await api.send(
            "POST", "relationships", ["contact_is": ada, "of_contact": charles, "relationship_type_id": friend])

        try await api.send(
            "POST", "notes", ["contact_id": ada, "body": "Wrote the first program", "is_favorited": true])
        try await api.send("POST", "tasks", ["contact_id": ada, "title": "Send the notes", "completed": false])
        let paper = try await id(api.object("POST", "tasks", ["title": "Buy paper", "completed": false]))
        try await api.send("PUT", "tasks/\(paper)", ["title": "Buy paper", "completed": true])
        let photo = try await id(
            api.upload("photos", ["contact_id": String(ada)], file: "photo", name: "ada.png", bytes: Self.photo))
        try await api.send("PUT", "contacts/\(ada)/avatar", ["source": "photo", "photo_id": photo])
        _ = try await api.upload(
            "documents", ["contact_id": String(ada)], file: "document", name: "Notes on the engine.pdf",
            bytes: Self.document)
        let gift = try await id(
            api.object(
                "POST", "gifts",
                [
                    "contact_id": ada, "name": "A loom", "status": "idea", "amount": 42.5, "comment": "Jacquard",
                    "url": "https://loom.example", "date": "2024-12-24", "recipient_id": charles,
                ]))
        try await api.send("PUT", "gifts/\(gift)/photo/\(photo)", [:])
        try await api.send(
            "POST", "reminders",
            [
                "contact_id": charles, "title": "Call Charles", "initial_date": "2025-03-01", "frequency_type": "month",
                "frequency_number": 2,
            ])
        try await api.send(
            "POST", "calls",
            ["contact_id": ada, "called_at": "2024-03-01 10:00", "content": "About the engine", "contact_called": true])
        try await api.send(
            "POST", "debts",
            ["contact_id": charles, "in_debt": "yes", "status": "inprogress", "amount": 12, "reason": "Lunch"])
        try await api.send("POST", "pets", ["contact_id": ada, "pet_category_id": 3, "name": "Puff"])
        let conversation = try await id(
            api.object(
                "POST", "conversations",
                ["contact_id": ada, "happened_at": "2024-04-03", "contact_field_type_id": mastodon]))
        for (mine, text) in [(true, "Shall we meet?"), (false, "Tuesday at the Society.")] {
            try await api.send(
                "POST", "conversations/\(conversation)/messages",
                ["contact_id": ada, "written_at": "2024-04-03", "written_by_me": mine, "content": text])
        }
        try await api.send(
            "POST", "activities",
            [
                "summary": "Climbing", "description": "The big wall", "happened_at": "2024-05-01",
                "activity_type_id": climbing, "contacts": [ada, charles],
            ])
        let newJob = try await api.id(in: "lifeeventtypes", named: "New job")
        try await api.send(
            "POST", "lifeevents",
            [
                "contact_id": ada, "life_event_type_id": newJob, "happened_at": "1833-06-05", "name": "Analyst",
                "note": "With Charles", "has_reminder": true, "happened_at_month_unknown": false,
                "happened_at_day_unknown": false,
            ])
        try await api.send(
            "POST", "occupations",
            [
                "contact_id": charles, "company_id": acme, "title": "Engineer", "salary": 1000, "salary_unit": "year",
                "currently_works_here": true, "start_date": "1820-01-01",
            ])
        try await api.send("POST", "journal", ["title": "Climbing day", "post": "A new route.", "date": "2024-05-03"])
        try await api.send("POST", "journal/days", ["date": "2024-05-03", "rate": 3, "comment": "Good"])
        try await api.send("POST", "me/contact", ["contact_id": grace])
    }

    /// Every list of the account, each item without what is the server's own (ids, times made,
    /// file addresses), a contact it points at by name, in a stable order.
    static func snapshot(_ api: MonicaAPI) async throws -> [String: String] {
        var lists: [String: String] = [:]
        for path in [
            "contacts?with=contactfields", "genders", "contactfieldtypes", "activitytypes", "companies", "places",
            "notes", "tasks", "gifts", "reminders", "calls", "debts", "pets", "conversations", "activities",
            "lifeevents", "occupations", "journal", "journal/days", "documents", "photos", "tags",
        ] {
            let items = try await api.list(path).map { text(normalized($0, nested: false)) }
            lists[path] = items.sorted().joined(separator: "\n")
        }
        let me = try #require(try await api.get("me") as? [String: Any])
        lists["me"] = text(normalized(me["me_contact"] ?? NSNull(), nested: true))
        return lists
    }

    /// Expects the two accounts to hold the same, list by list.
    static func expectSame(_ source: MonicaAPI, _ target: MonicaAPI) async throws -> [String: String] {
        let before = try await snapshot(source)
        let after = try await snapshot(target)
        for key in before.keys.sorted() {
            #expect(
                after[key] == before[key], "\(key) differs:\nsource: \(before[key] ?? "")\ntarget: \(after[key] ?? "")")
        }
        return after
    }

    /// Keys whose values are the server's own, not the account's. Monica's API takes no time for
    /// when a note was starred or a task done: the copy has the time it was made.
    private static let serversOwn: Set<String> = [
        "id", "uuid", "url", "link", "account", "created_at", "updated_at", "hash_id", "new_filename",
        "number_of_downloads", "dataUrl", "default_avatar_color", "delible", "completed_at", "favorited_at",
    ]

    private static func normalized(_ value: Any, nested: Bool) -> Any {
        if let object = value as? [String: Any] {
            if nested, object["object"] as? String == "contact" { return object["complete_name"] ?? "?" }
            return object.filter { !serversOwn.contains($0.key) }.mapValues { normalized($0, nested: true) }
        }
        if let array = value as? [Any] {
            return array.map { normalized($0, nested: true) }.sorted { text($0) < text($1) }
        }
        return value
    }

    private static func text(_ value: Any) -> String {
        guard JSONSerialization.isValidJSONObject([value]),
            let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
        else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func id(_ object: [String: Any]) throws -> Int {
        try #require(object["id"] as? Int, "no id in \(object)")
    }
}
