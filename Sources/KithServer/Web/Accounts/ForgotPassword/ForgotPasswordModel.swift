import Foundation

/// Ask for a password reset link (forgot-password.mustache).
struct ForgotPasswordModel: AccountPageModel {
    static let template = "forgot-password"
    static let title = "Forgot password"

    var email = ""
    /// A link was sent (or would have been): the button offers another.
    var sent = false
    var notice: String?
    var error: String?
    var errors: AccountFormErrors?
    let limits = CredentialLimits.declared
}
