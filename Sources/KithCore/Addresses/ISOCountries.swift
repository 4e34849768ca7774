import Foundation

/// Every ISO 3166-1 country, by upper-case alpha-2 code, named in English: what Monica's
/// `/countries` lists, and what an address's country may be.
public enum ISOCountries {
    /// Region codes Foundation knows that are not ISO 3166-1 countries (continents, unions,
    /// reserved and user-assigned codes).
    private static let notCountries: Set<String> = [
        "AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XK", "ZZ",
    ]

    /// Upper-case alpha-2 code -> English name, for the 249 countries.
    public static let names: [String: String] = {
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

    /// The code as stored (upper case) when `text` names a country by its code, in any case.
    public static func code(_ text: String) -> String? {
        let upper = text.trimmingCharacters(in: .whitespaces).uppercased()
        return names[upper] == nil ? nil : upper
    }

    /// The code of the country `text` names, as an address book writes it: its code, or its
    /// name in English or in one of the languages phones most often write addresses in (German,
    /// French, Spanish, Italian, Dutch, Portuguese), case and accents ignored, or a common short
    /// name (USA, UK). Nil when it names none.
    public static func code(naming text: String) -> String? {
        if let code = code(text) { return code }
        return byName[fold(text)]
    }

    private static let byName: [String: String] = {
        var found: [String: String] = ["usa": "US", "us": "US", "uk": "GB", "great britain": "GB", "england": "GB"]
        for language in ["en", "de", "fr", "es", "it", "nl", "pt"] {
            let locale = Locale(identifier: language)
            for code in names.keys {
                guard let name = locale.localizedString(forRegionCode: code) else { continue }
                found[fold(name)] = found[fold(name)] ?? code
            }
        }
        return found
    }()

    private static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
    }

    /// The countries as (code, name), in name order.
    public static var sortedByName: [(code: String, name: String)] {
        names.sorted { $0.value.localizedStandardCompare($1.value) == .orderedAscending }.map { ($0.key, $0.value) }
    }
}
