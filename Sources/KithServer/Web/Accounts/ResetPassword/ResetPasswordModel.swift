import Foundation

/// Choose a new password from a reset link (reset-password.mustache), or why the link can't.
struct ResetPasswordModel: AccountPageModel {
    static let template = "reset-password"
    static let title = "Choose a new password"

    /// The link's token, sent again with the form.
    var token = ""
    /// The link is unknown, used or expired: `error` says which, and the page offers a new one.
    var invalidLink = false
    var notice: String?
    var error: String?
    var errors: AccountFormErrors?
    let limits = CredentialLimits.declared
}
