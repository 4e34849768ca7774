import Foundation
import KithCore

/// Create or join a family (family-start.mustache), with what a refused form had typed and why.
struct FamilyStartModel: FamilyPageModel {
    static let template = "family-start"

    /// The zone field: the browser's zone (or the one typed); "UTC" when unknown.
    let zone: ZoneField
    /// Whether the browser said its zone (family.js otherwise picks it).
    let zoneKnown: Bool
    var create: CreateForm?
    var createErrors: FamilyFieldErrors?
    var createError: String?
    var join: JoinForm?
    var joinErrors: JoinErrors?
    var joinError: String?
    let limits = FamilyFormLimits.declared

    init(zone: String) {
        self.zone = ZoneField(value: zone.isEmpty ? "UTC" : zone)
        zoneKnown = !zone.isEmpty
    }

    struct CreateForm {
        let name: String
        let timeZone: String
        let displayName: String
    }

    struct JoinForm {
        let code: String
        let displayName: String
    }

    struct JoinErrors: FieldErrors {
        var code: String?
        var displayName: String?

        static var fields: [String: WritableKeyPath<Self, String?>] { ["code": \.code, "displayName": \.displayName] }
    }
}
