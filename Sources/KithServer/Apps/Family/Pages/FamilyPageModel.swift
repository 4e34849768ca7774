import Foundation
import KithCore

/// A Family page: Family is the header's current app, and the page loads family.js (which
/// follows `/v1/live` with live.js). `FamilyPageRenderer` adds the reader's unread notices.
protocol FamilyPageModel: PageModel {}

extension FamilyPageModel {
    var section: WebSection { .family }
    var scripts: PageScripts { .live("family.js") }
}

/// The family forms' `maxlength`s, from the rules `FamilyService` checks them with.
struct FamilyFormLimits {
    let familyName = FamilyLimits.nameLength.upperBound
    let displayName = FamilyLimits.displayNameLength.upperBound
    let joinCode = JoinCode.maxTypedLength

    static let declared = FamilyFormLimits()
}

/// A refusal next to the field of the family's forms (create, settings, your name) it names.
struct FamilyFieldErrors: FieldErrors {
    var name: String?
    var timeZone: String?
    var snoozeLimit: String?
    var displayName: String?

    static var fields: [String: WritableKeyPath<Self, String?>] {
        ["name": \.name, "timeZone": \.timeZone, "snoozeLimit": \.snoozeLimit, "displayName": \.displayName]
    }
}

/// The searchable time zone field: what it holds, and the zones it suggests (`FamilyLimits`
/// accepts them, and `TimeZoneInput` reads a city or any case as one of them).
struct ZoneField {
    let value: String
    let zones = FamilyPageRenderer.timeZones
}

/// A time zone of a form's list (the account page's choice of zone for Contacts reminders).
struct ZoneOption {
    let name: String
    let selected: Bool
}

extension ZoneOption {
    /// The zones `FamilyLimits` accepts, `selected` chosen (added when the list lacks it, such as
    /// "UTC").
    static func all(selected: String) -> [ZoneOption] {
        let zones = FamilyPageRenderer.timeZones
        let names = zones.contains(selected) || selected.isEmpty ? zones : [selected] + zones
        return names.map { ZoneOption(name: $0, selected: $0 == selected) }
    }
}
