import Foundation
import KithCore

/// A page of `AccountPages`: its title, and a form whose refusal goes next to its field (or above
/// the form when it names none the form shows).
protocol AccountPageModel: PageModel {
    static var title: String { get }
    var notice: String? { get set }
    var error: String? { get set }
    var errors: AccountFormErrors? { get set }
}

extension AccountPageModel {
    var section: WebSection { .other }

    mutating func refuse(_ refusal: AppError) {
        if let errors = AccountFormErrors(refusal) { self.errors = errors } else { error = refusal.detail.message }
    }
}

/// A refusal next to the account forms' field it names.
struct AccountFormErrors: FieldErrors {
    var email: String?
    var password: String?
    var currentPassword: String?
    var newPassword: String?
    var deletePassword: String?
    var name: String?
    var token: String?
    var hour: String?
    var timeZone: String?
    var currency: String?

    static var fields: [String: WritableKeyPath<Self, String?>] {
        [
            "email": \.email, "password": \.password, "currentPassword": \.currentPassword,
            "newPassword": \.newPassword, "deletePassword": \.deletePassword, "name": \.name, "token": \.token,
            "hour": \.hour, "timeZone": \.timeZone, "currency": \.currency,
        ]
    }
}

/// The account forms' limits, from the rules both sides check (`CredentialRules`).
struct CredentialLimits {
    let email = CredentialRules.maximumEmailLength
    let passwordMinimum = CredentialRules.minimumPasswordCharacters
    let tokenName = CredentialRules.maximumTokenNameLength

    static let declared = CredentialLimits()
}
