import Foundation
import KithCore

/// The account's own lists that contacts point at: matched by name on the target, made there
/// when it has no such one; and companies and places, copied.
extension MonicaImport {
    func copyVocabularies() async throws {
        let targetGenders = try await names(of: "genders")
        try await eachItem("genders", as: .genders) { gender in
            let name = gender["name"]?.stringValue ?? ""
            if let id = targetGenders[name.lowercased()] {
                genders[name] = id
                return
            }
            let type = gender["type"]?.stringValue.flatMap { ["M", "F", "O"].contains($0) ? $0 : nil } ?? "O"
            let made = try await copy(.genders, "gender:\(Self.id(gender))", sourceID: Self.id(gender), name: name) {
                try await create("genders", ["name": .string(name), "type": .string(type)], $0)
            }
            if let made { genders[name] = made }
        }

        let targetFieldTypes = try await names(of: "contactfieldtypes")
        try await eachItem("contactfieldtypes", as: .contactFieldTypes) { type in
            let name = type["name"]?.stringValue ?? ""
            if let id = targetFieldTypes[name.lowercased()] {
                fieldTypes[name] = id
                return
            }
            let made = try await copy(
                .contactFieldTypes, "contactfieldtype:\(Self.id(type))", sourceID: Self.id(type), name: name
            ) {
                try await create(
                    "contactfieldtypes",
                    .members([
                        ("name", .string(name)), ("fontawesome_icon", type.text("fontawesome_icon")),
                        ("protocol", type.text("protocol")), ("type", type.text("type")),
                        ("delible", .bool(type.flag("delible") ?? true)),
                    ]), $0)
            }
            if let made { fieldTypes[name] = made }
        }

        try await copyActivityTypes()
    }

    /// Activity types by name; a type the target lacks is made in the category of its name
    /// (made too when missing).
    private func copyActivityTypes() async throws {
        let targetTypes = try await names(of: "activitytypes")
        var categories = try await names(of: "activitytypecategories")
        try await eachItem("activitytypes", as: .activityTypes) { type in
            let name = type["name"]?.stringValue ?? ""
            if let id = targetTypes[name.lowercased()] {
                activityTypes[name] = id
                return
            }
            let categoryName = type["activity_type_category"]?["name"]?.stringValue ?? "Other"
            let made = try await copy(
                .activityTypes, "activitytype:\(Self.id(type))", sourceID: Self.id(type), name: name
            ) { writeKey in
                let category: Int
                if let known = categories[categoryName.lowercased()] {
                    category = known
                } else {
                    category = try await create(
                        "activitytypecategories", ["name": .string(categoryName)], writeKey + ":category")
                    categories[categoryName.lowercased()] = category
                }
                return try await create(
                    "activitytypes", ["name": .string(name), "activity_type_category_id": .int(Int64(category))],
                    writeKey)
            }
            if let made { activityTypes[name] = made }
        }
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
        try await eachItem("companies", as: .companies) { company in
            let id = Self.id(company)
            try await copy(.companies, "company:\(id)", sourceID: id, name: company["name"]?.stringValue ?? "") {
                try await create(
                    "companies",
                    .members([
                        ("name", company.text("name")), ("website", company.text("website")),
                        ("number_of_employees", company.number("number_of_employees")),
                    ]), $0)
            }
        }
        try await eachItem("places", as: .places) { place in
            let id = Self.id(place)
            let name = [place["street"], place["city"]].compactMap { $0?.stringValue }.joined(separator: ", ")
            try await copy(.places, "place:\(id)", sourceID: id, name: name) {
                try await create("places", Self.location(place), $0)
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
