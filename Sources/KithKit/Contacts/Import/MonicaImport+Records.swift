import Foundation
import KithCore

/// What the account keeps about its contacts (notes, tasks, gifts, calls, debts, pets,
/// conversations, activities, life events, reminders, occupations), its journal, and its files.
/// Each list is read account-wide, a hundred a page: far fewer requests than contact by contact.
extension MonicaImport {
    func copyContactRecords() async throws {
        try await eachItem("notes", as: .notes) { note in
            try await copyOwned(.notes, "note", note, name: Self.excerpt(note["body"])) { contact in
                .members([
                    ("contact_id", contact), ("body", note.text("body")),
                    ("is_favorited", .bool(note.flag("is_favorited") ?? false)),
                ])
            }
        }
        try await eachItem("tasks", as: .tasks) { task in
            let id = Self.id(task)
            try await copy(.tasks, "task:\(id)", sourceID: id, name: task["title"]?.stringValue ?? "") {
                let owner = try Self.contactID(of: task).map { JSONTree.int(Int64(try contact($0))) } ?? .null
                let fields: [(String, JSONTree?)] = [
                    ("contact_id", owner), ("title", task.text("title")), ("description", task.text("description")),
                ]
                let made = try await create("tasks", .members(fields + [("completed", false)]), $0)
                // Monica makes every task open; a done one is closed by an update.
                if task.flag("completed") == true {
                    _ = try await target.json(
                        "PUT", "tasks/\(made)", body: .members(fields + [("completed", true)]),
                        idempotencyKey: $0 + ":done")
                }
                return made
            }
        }
        try await copyGifts()
        try await copyLife()
        try await eachItem("reminders", as: .reminders) { reminder in
            try await copyOwned(.reminders, "reminder", reminder, name: reminder["title"]?.stringValue ?? "") {
                contact in
                let every = reminder.number("frequency_number")
                return .members([
                    ("contact_id", contact), ("title", reminder.text("title")),
                    ("description", reminder.text("description")), ("initial_date", reminder.day("initial_date")),
                    ("frequency_type", reminder.text("frequency_type")), ("frequency_number", every.isNull ? 1 : every),
                ])
            }
        }
        try await eachItem("occupations", as: .occupations) { job in
            try await copyOwned(.occupations, "occupation", job, name: job["title"]?.stringValue ?? "") { contact in
                let company = job["company"]?["id"].flatMap(MonicaClient.number)
                guard let company, let copied = ids["company:\(company)"] else {
                    throw Unmet(reason: "its company was not copied")
                }
                return .members([
                    ("contact_id", contact), ("company_id", .int(Int64(copied))), ("title", job.text("title")),
                    ("description", job.text("description")), ("salary", job.number("salary")),
                    ("salary_unit", job.text("salary_unit")),
                    ("currently_works_here", .bool(job.flag("currently_works_here") ?? false)),
                    ("start_date", job.day("start_date")), ("end_date", job.day("end_date")),
                ])
            }
        }
    }

    /// An object that belongs to a contact: `body` gets the target contact's id.
    func copyOwned(
        _ kind: ImportedKind, _ prefix: String, _ item: JSONTree, name: String, path: String? = nil,
        _ body: (JSONTree) throws -> JSONTree
    ) async throws {
        let id = Self.id(item)
        try await copy(kind, "\(prefix):\(id)", sourceID: id, name: name) {
            let contact = JSONTree.int(Int64(try contact(Self.contactID(of: item))))
            return try await create(path ?? kind.rawValue.lowercased(), try body(contact), $0)
        }
    }

    private func copyGifts() async throws {
        try await eachItem("gifts", as: .gifts) { gift in
            let name = gift["name"]?.stringValue ?? ""
            try await copyOwned(.gifts, "gift", gift, name: name) { contact in
                let recipient = gift["recipient"]?["id"].flatMap(MonicaClient.number)
                return .members([
                    ("contact_id", contact), ("name", gift.text("name")), ("comment", gift.text("comment")),
                    ("url", gift.text("url")), ("amount", gift.number("amount")),
                    ("status", gift["status"]?.stringValue.map(JSONTree.string) ?? "idea"), ("date", gift.day("date")),
                    ("recipient_id", try recipient.map { .int(Int64(try self.contact($0))) } ?? .null),
                ])
            }
            guard let copiedGift = ids["gift:\(Self.id(gift))"] else { return }
            for photo in gift["photos"]?.arrayValue ?? [] {
                let photoID = Self.id(photo)
                try await copy(.gifts, "giftphoto:\(Self.id(gift)):\(photoID)", sourceID: Self.id(gift), name: name) {
                    guard let copiedPhoto = ids["photo:\(photoID)"] else {
                        throw Unmet(reason: "its photo was not copied")
                    }
                    _ = try await target.json(
                        "PUT", "gifts/\(copiedGift)/photo/\(copiedPhoto)", body: [:], idempotencyKey: $0)
                    return copiedGift
                }
            }
        }
    }

    /// Calls, debts, pets, conversations with their messages, activities and life events.
    private func copyLife() async throws {
        try await eachItem("calls", as: .calls) { call in
            try await copyOwned(.calls, "call", call, name: call["called_at"]?.stringValue ?? "") { contact in
                .members([
                    ("contact_id", contact), ("called_at", call.text("called_at")), ("content", call.text("content")),
                    ("contact_called", .bool(call.flag("contact_called") ?? false)),
                ])
            }
        }
        try await eachItem("debts", as: .debts) { debt in
            try await copyOwned(.debts, "debt", debt, name: debt["reason"]?.stringValue ?? "") { contact in
                .members([
                    ("contact_id", contact), ("in_debt", debt.text("in_debt")), ("status", debt.text("status")),
                    ("amount", debt.number("amount")), ("reason", debt.text("reason")),
                ])
            }
        }
        let petCategories = (try? await names(of: "petcategories")) ?? [:]
        try await eachItem("pets", as: .pets) { pet in
            try await copyOwned(.pets, "pet", pet, name: pet["name"]?.stringValue ?? "") { contact in
                let category = pet["pet_category"]
                let id =
                    category?["name"]?.stringValue.flatMap { petCategories[$0.lowercased()] }
                    ?? category?["id"].flatMap(MonicaClient.number)
                return .members([
                    ("contact_id", contact), ("name", pet.text("name")),
                    ("pet_category_id", .nullable(id.map(Int64.init))),
                ])
            }
        }
        try await copyConversations()
        try await eachItem("activities", as: .activities) { activity in
            let id = Self.id(activity)
            try await copy(.activities, "activity:\(id)", sourceID: id, name: activity["summary"]?.stringValue ?? "") {
                let attendees = (activity["attendees"]?["contacts"]?.arrayValue ?? []).compactMap {
                    $0["id"].flatMap(MonicaClient.number).flatMap { ids["contact:\($0)"] }
                }
                guard !attendees.isEmpty else { throw Unmet(reason: "none of its contacts was copied") }
                let type = activity["activity_type"]?["name"]?.stringValue.flatMap { activityTypes[$0] }
                return try await create(
                    "activities",
                    .members([
                        ("summary", activity.text("summary")), ("description", activity.text("description")),
                        ("happened_at", activity.day("happened_at")),
                        ("activity_type_id", .nullable(type.map(Int64.init))),
                        ("contacts", .array(attendees.map { .int(Int64($0)) })),
                    ]), $0)
            }
        }
        try await copyLifeEvents()
    }

    private func copyConversations() async throws {
        try await eachItem("conversations", as: .conversations) { conversation in
            let typeName = conversation["contact_field_type"]?["name"]?.stringValue ?? ""
            try await copyOwned(.conversations, "conversation", conversation, name: typeName) { contact in
                guard let type = fieldTypes[typeName] else {
                    throw Unmet(reason: "its medium \(typeName) was not copied")
                }
                return [
                    "contact_id": contact, "happened_at": conversation.text("happened_at"),
                    "contact_field_type_id": .int(Int64(type)),
                ]
            }
            guard let copied = ids["conversation:\(Self.id(conversation))"] else { return }
            for message in conversation["messages"]?.arrayValue ?? [] {
                let id = Self.id(message)
                try await copy(.messages, "message:\(id)", sourceID: id, name: Self.excerpt(message["content"])) {
                    let answer = try await target.json(
                        "POST", "conversations/\(copied)/messages",
                        body: [
                            "contact_id": .int(
                                Int64(try contact(Self.contactID(of: message) ?? Self.contactID(of: conversation)))),
                            "written_at": message.text("written_at"),
                            "written_by_me": .bool(message.flag("written_by_me") ?? false),
                            "content": message.text("content"),
                        ], idempotencyKey: $0)
                    // The answer is the conversation; the newest message is the one just made.
                    return (answer["messages"]?.arrayValue ?? []).compactMap { $0["id"].flatMap(MonicaClient.number) }
                        .max()
                        ?? copied
                }
            }
        }
    }

    /// Life events, each of a type matched by its key (Monica's defaults) or its name. The
    /// reminder an event may have is copied with the reminders, as it is.
    private func copyLifeEvents() async throws {
        var types: [String: Int] = [:]
        var page = 1
        while let answer = try? await target.jsonPage("lifeeventtypes", page: page) {
            for type in answer.items {
                for key in [type["default_life_event_type_key"]?.stringValue, type["name"]?.stringValue].compactMap({
                    $0
                }) {
                    types[key.lowercased()] = types[key.lowercased()] ?? Self.id(type)
                }
            }
            guard answer.hasMore else { break }
            page += 1
        }
        try await eachItem("lifeevents", as: .lifeEvents) { event in
            try await copyOwned(.lifeEvents, "lifeevent", event, name: event["name"]?.stringValue ?? "") { contact in
                let type = event["life_event_type"]
                let names = [type?["default_life_event_type_key"]?.stringValue, type?["name"]?.stringValue]
                guard let typeID = names.compactMap({ $0.flatMap { types[$0.lowercased()] } }).first else {
                    throw Unmet(reason: "the target has no life event type \(names.compactMap { $0 }.first ?? "")")
                }
                return .members([
                    ("contact_id", contact), ("life_event_type_id", .int(Int64(typeID))),
                    ("happened_at", event.text("happened_at")), ("name", event.text("name")),
                    ("note", event.text("note")),
                    ("has_reminder", false),
                    ("happened_at_month_unknown", .bool(event.flag("happened_at_month_unknown") ?? false)),
                    ("happened_at_day_unknown", .bool(event.flag("happened_at_day_unknown") ?? false)),
                ])
            }
        }
    }

    // MARK: Journal

    func copyJournal() async throws {
        try await copyEach("journal", as: .journalEntries, key: "entry", name: { $0["title"]?.stringValue ?? "" }) {
            .members([("title", $0.text("title")), ("post", $0.text("post")), ("date", $0.day("date"))])
        }
        try await copyEach(
            "journal/days", as: .dayRatings, key: "day", optional: true, name: { $0["date"]?.stringValue ?? "" }
        ) {
            .members([("date", $0.day("date")), ("rate", $0.number("rate")), ("comment", $0.text("comment"))])
        }
    }

    // MARK: Files

    /// Documents and photos: each file downloaded from the source and uploaded to the target
    /// with its contact, under its own name.
    func copyFiles() async throws {
        for (kind, path, field) in [(ImportedKind.documents, "documents", "document"), (.photos, "photos", "photo")] {
            try await eachItem(path, as: kind) { file in
                let id = Self.id(file)
                let link = file["link"]?.stringValue
                if kind == .photos, let link { photoLinks[link] = id }
                let filename = file["original_filename"]?.stringValue ?? "\(field)-\(id)"
                try await copy(kind, "\(field):\(id)", sourceID: id, name: filename) {
                    let contact = try contact(Self.contactID(of: file))
                    guard let link else { throw Unmet(reason: "the source gives no link to its file") }
                    let bytes: Data
                    do {
                        bytes = try await source.download(link)
                    } catch MonicaClientError.notFound {
                        throw Unmet(reason: "its file is gone from the source")
                    }
                    let form = MultipartFormData(parts: [
                        .init(name: "contact_id", value: String(contact)),
                        .init(
                            name: field, filename: filename, contentType: file["mime_type"]?.stringValue,
                            body: [UInt8](bytes)),
                    ])
                    return try Self.madeID(try await target.upload(path, form, idempotencyKey: $0), field)
                }
            }
        }
    }

    /// The first words of a text, to name a note or a message.
    static func excerpt(_ text: JSONTree?) -> String {
        let words = (text?.stringValue ?? "").split(whereSeparator: \.isWhitespace).prefix(8).joined(separator: " ")
        return words.count > 60 ? String(words.prefix(60)) + "…" : words
    }
}
