import Foundation

/// A family's time zone as a person types it in the searchable field (an `<input list>` over the
/// zones): the zone they meant when it is plain which ("europe/berlin", "Berlin", "new york"),
/// else the text as typed, which `FamilyLimits.checkedTimeZone` then refuses next to the field.
enum TimeZoneInput {
    static func zone(_ typed: String) -> String {
        let text = typed.trimmingCharacters(in: .whitespaces)
        let key = text.replacingOccurrences(of: " ", with: "_").lowercased()
        let zones = FamilyPageRenderer.timeZones
        if let exact = zones.first(where: { $0.lowercased() == key }) { return exact }
        let cities = zones.filter { $0.split(separator: "/").last?.lowercased() == key }
        return cities.count == 1 ? cities[0] : text
    }
}
