import Foundation

/// Create an account (signup.mustache): an email and a password.
struct SignUpModel: AccountPageModel, EmailFormModel {
    static let template = "signup"
    static let title = "Create your account"

    /// The email typed, kept after a refusal.
    var email = ""
    var notice: String?
    var error: String?
    var errors: AccountFormErrors?
    let limits = CredentialLimits.declared
}
