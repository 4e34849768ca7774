import Foundation
import KithCore

/// The account page (account.mustache): the email, the API tokens (a new one shown once), and the
/// forms that change the password, make and revoke tokens and delete the account.
struct AccountModel: AccountPageModel {
    static let template = "account"
    static let title = "Your account"

    let account: Account
    let tokens: [TokenRow]
    var newToken: NewToken?
    var notice: String?
    var error: String?
    var errors: AccountFormErrors?
    let limits = CredentialLimits.declared
    var section: WebSection { .account }

    init(_ user: AuthenticatedUser, tokens: [PersonalTokenDTO], zone: TimeZone?) {
        account = Account(email: user.email, createdAt: Moment(user.createdAt, in: zone))
        self.tokens = tokens.map { TokenRow($0, zone: zone) }
    }

    struct Account {
        let email: String
        let createdAt: Moment
    }

    struct TokenRow {
        let id: String
        let name: String
        let createdAt: Moment
        let lastUsedAt: Moment?
        /// An app's sign-in expires; a token made here does not.
        let expiresAt: Moment?

        init(_ token: PersonalTokenDTO, zone: TimeZone?) {
            id = token.id.lowercased
            name = token.name
            createdAt = Moment(token.createdAt, in: zone)
            lastUsedAt = token.lastUsedAt.map { Moment($0, in: zone) }
            expiresAt = token.expiresAt.map { Moment($0, in: zone) }
        }
    }

    struct NewToken {
        let name: String
        let token: String
    }

    /// A time for a `<time>` element: the wire form, and the words in the reader's zone.
    struct Moment {
        let iso: String
        let text: String

        init(_ moment: Date, in zone: TimeZone?) {
            iso = WireCoding.formatTimestamp(moment)
            text = WebTime.text(moment, in: zone)
        }
    }
}
