import Foundation

/// Sign in (signin.mustache): an email and a password.
struct SignInModel: AccountPageModel, EmailFormModel {
    static let template = "signin"
    static let title = "Sign in"

    /// The email typed, kept after a refusal.
    var email = ""
    var notice: String?
    var error: String?
    var errors: AccountFormErrors?
    let limits = CredentialLimits.declared
}
