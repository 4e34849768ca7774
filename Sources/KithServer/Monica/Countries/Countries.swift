import Foundation
import KithCore

/// Every ISO 3166-1 country, named in English, as Monica lists them.
enum Countries {
    /// Region codes Foundation knows that are not ISO 3166-1 countries (continents, unions,
    /// reserved and user-assigned codes).
    private static let notCountries: Set<String> = [
        "AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XK", "ZZ",
    ]

    /// Upper-case alpha-2 code -> English name, for the 249 countries.
    static let names: [String: String] = {
        let english = Locale(identifier: "en")
        var names: [String: String] = [:]
        for region in Locale.Region.isoRegions {
            let code = region.identifier
            guard code.count == 2, code.allSatisfy(\.isLetter), !notCountries.contains(code),
                let name = english.localizedString(forRegionCode: code)
            else { continue }
            names[code] = name
        }
        return names
    }()

    /// The code as stored (upper case) when it names a country.
    static func code(_ text: String) -> String? {
        let upper = text.uppercased()
        return names[upper] == nil ? nil : upper
    }

    static func present(_ code: String) -> JSONTree {
        ["id": .string(code), "object": "country", "name": .string(names[code] ?? ""), "iso": .string(code)]
    }

    /// `{"data":{"af":{…},…}}`: an object keyed by lower-case code, in name order.
    static let listBody: JSONTree = {
        let sorted = names.sorted { $0.value.localizedStandardCompare($1.value) == .orderedAscending }
        return ["data": .object(JSONObject(sorted.map { ($0.key.lowercased(), present($0.key)) }))]
    }()
}
