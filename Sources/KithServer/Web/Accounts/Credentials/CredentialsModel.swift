import Foundation

/// Signing up or in: an email and a password, the email kept after a refusal. One model for
/// both pages, a type of its own for each (`SignUpModel`, `SignInModel`), as the forms are the
/// same but for their template and title.
struct CredentialsModel<Form: CredentialsForm>: AccountPageModel {
    static var template: String { Form.template }
    static var title: String { Form.title }

    var email = ""
    /// The page to go back to after signing in (`SignInReturn`), carried by the form.
    var next: String?
    var notice: String?
    var error: String?
    var errors: AccountFormErrors?
    let limits = CredentialLimits.declared
}

/// Which of the two pages a `CredentialsModel` is.
protocol CredentialsForm {
    static var template: String { get }
    static var title: String { get }
}

/// Create an account (signup.mustache).
enum SignUpForm: CredentialsForm {
    static let template = "signup"
    static let title = "Create your account"
}

/// Sign in (signin.mustache).
enum SignInForm: CredentialsForm {
    static let template = "signin"
    static let title = "Sign in"
}

typealias SignUpModel = CredentialsModel<SignUpForm>
typealias SignInModel = CredentialsModel<SignInForm>
