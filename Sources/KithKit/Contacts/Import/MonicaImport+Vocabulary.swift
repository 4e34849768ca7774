import Foundation
import KithCore

/// The account's own lists that contacts point at: matched by name on the target, made there
/// when it has no such one; and companies and places, copied.
extension MonicaImport {
    func copyVocabularies() async throws {
        genders = try await matchByName("genders", as: .genders, key: "gender") { gender, name, writeKey in
            let type = gender["type"]?.stringValue.flatMap { ["M", "F", "O"].contains($0) ? $0 : nil } ?? "O"
            return try await create("genders", ["name": .string(name), "type": .string(type)], writeKey)
        }
        fieldTypes = try await matchByName("contactfieldtypes", as: .contactFieldTypes, key: "contactfieldtype") {
            type, name, writeKey in
            try await create(
                "contactfieldtypes",
                .members([
                    ("name", .string(name)), ("fontawesome_icon", type.text("fontawesome_icon")),
                    ("protocol", type.text("protocol")), ("type", type.text("type")),
                    ("delible", .bool(type.flag("delible") ?? true)),
                ]), writeKey)
        }
        // A type the target lacks is made in the category of its name (made too when missing).
        var categories = try await names(of: "activitytypecategories")
        activityTypes = try await matchByName("activitytypes", as: .activityTypes, key: "activitytype") {
            type, name, writeKey in
            let categoryName = type["activity_type_category"]?["name"]?.stringValue ?? "Other"
            let category: Int
            if let known = categories[categoryName.lowercased()] {
                category = known
            } else {
                category = try await create(
                    "activitytypecategories", ["name": .string(categoryName)], writeKey + ":category")
                categories[categoryName.lowercased()] = category
            }
            return try await create(
                "activitytypes", ["name": .string(name), "activity_type_category_id": .int(Int64(category))], writeKey)
        }
    }

    /// The source's list at `path` matched by name with the target's: each source name and the
    /// target id it is; a name the target lacks is made there with `make` (a refused one is left out).
    private func matchByName(
        _ path: String, as kind: ImportedKind, key: String,
        make: (_ item: JSONTree, _ name: String, _ writeKey: String) async throws -> Int
    ) async throws -> [String: Int] {
        let target = try await names(of: path)
        var matched: [String: Int] = [:]
        try await eachItem(path, as: kind) { item in
            let name = item["name"]?.stringValue ?? ""
            if let id = target[name.lowercased()] {
                matched[name] = id
            } else if let made = try await copy(
                kind, "\(key):\(Self.id(item))", sourceID: Self.id(item), name: name,
                {
                    try await make(item, name, $0)
                })
            {
                matched[name] = made
            }
        }
        return matched
    }

    /// The target's list at `path` by lower-cased name (its first of each name).
    func names(of path: String) async throws -> [String: Int] {
        var byName: [String: Int] = [:]
        var page = 1
        while true {
            let answer = try await target.jsonPage(path, page: page)
            for item in answer.items {
                guard let name = item["name"]?.stringValue?.lowercased(), byName[name] == nil else { continue }
                byName[name] = Self.id(item)
            }
            guard answer.hasMore else { return byName }
            page += 1
        }
    }

    func copyCompaniesAndPlaces() async throws {
        try await copyEach("companies", as: .companies, key: "company", name: { $0["name"]?.stringValue ?? "" }) {
            .members([
                ("name", $0.text("name")), ("website", $0.text("website")),
                ("number_of_employees", $0.number("number_of_employees")),
            ])
        }
        try await copyEach(
            "places", as: .places, key: "place",
            name: { [$0["street"], $0["city"]].compactMap { $0?.stringValue }.joined(separator: ", ") }, Self.location)
    }

    /// Every item of a source list that belongs to no contact, made with `body` at the same
    /// path on the target.
    func copyEach(
        _ path: String, as kind: ImportedKind, key: String, optional: Bool = false, name: (JSONTree) -> String,
        _ body: (JSONTree) -> JSONTree
    ) async throws {
        try await eachItem(path, as: kind, optional: optional) { item in
            let id = Self.id(item)
            try await copy(kind, "\(key):\(id)", sourceID: id, name: name(item)) {
                try await create(path, body(item), $0)
            }
        }
    }

    /// A place's or an address's street, city, country and coordinates, as a request gives them.
    static func location(_ item: JSONTree) -> JSONTree {
        let country = item["country"]?["iso"]?.stringValue ?? item["country"]?["id"]?.stringValue
        return .members([
            ("street", item.text("street")), ("city", item.text("city")), ("province", item.text("province")),
            ("postal_code", item.text("postal_code")), ("country", country.map(JSONTree.string) ?? .null),
            ("latitude", item.number("latitude")), ("longitude", item.number("longitude")),
        ])
    }
}
