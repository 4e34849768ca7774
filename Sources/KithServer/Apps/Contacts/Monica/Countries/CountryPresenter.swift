import Foundation
import KithCore

/// Countries as Monica presents them (the list itself is KithCore's `ISOCountries`).
enum CountryPresenter {
    static func present(_ code: String) -> JSONTree {
        ["id": .string(code), "object": "country", "name": .string(ISOCountries.names[code] ?? ""), "iso": .string(code)]
    }

    /// `{"data":{"af":{…},…}}`: an object keyed by lower-case code, in name order.
    static let listBody: JSONTree = {
        ["data": .object(JSONObject(ISOCountries.sortedByName.map { ($0.code.lowercased(), present($0.code)) }))]
    }()
}
