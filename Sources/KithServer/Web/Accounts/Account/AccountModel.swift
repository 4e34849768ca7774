import Foundation
import KithCore

/// The account page (account.mustache): the email, the API tokens (a new one shown once), the
/// devices that get notifications, and the forms that change the password, make and revoke tokens,
/// choose what each device is told or remove it, and delete the account.
struct AccountModel: AccountPageModel {
    static let template = "account"
    static let title = "Your account"

    let account: Account
    let tokens: [TokenRow]
    let devices: [DeviceRow]
    let reminderTime: ReminderTimeForm
    /// The currency gifts' values are written in, one of KithCore's `Currencies`.
    let currencies: [CurrencyOption]
    /// How the phone's own Contacts and Reminders apps sign in (CardDAV, CalDAV: docs/dav.md).
    let phoneApps: PhoneApps
    var newToken: NewToken?
    /// Why the account can't be deleted yet, with the way out: the delete form is not offered.
    var deletionBlocker: AccountDeletionBlocker?
    var notice: String?
    var error: String?
    var errors: AccountFormErrors?
    let limits = CredentialLimits.declared
    var section: WebSection { .account }

    init(
        _ user: AuthenticatedUser, tokens: [PersonalTokenDTO], devices: [WebPushDeviceDTO], reminderTime: ReminderTime,
        zone: TimeZone?, currency: Currency, publicURL: String
    ) {
        currencies = Currencies.all.map {
            CurrencyOption(code: $0.code, label: "\($0.name) (\($0.code))", selected: $0 == currency)
        }
        phoneApps = PhoneApps(server: publicURL, dav: publicURL + DAVServer.root + "/")
        account = Account(email: user.email, createdAt: Moment(user.createdAt, in: zone))
        self.tokens = tokens.map { TokenRow($0, zone: zone) }
        self.devices = devices.map { DeviceRow($0, zone: zone) }
        self.reminderTime = ReminderTimeForm(reminderTime)
    }

    /// When Contacts reminders are pushed: an hour (a choice from 00:00 to 23:00) and a zone (the
    /// zones a family may choose, as on the Family pages).
    struct ReminderTimeForm {
        let hours: [Hour]
        let zones: [ZoneOption]

        struct Hour {
            let value: Int
            let label: String
            let selected: Bool
        }

        init(_ time: ReminderTime) {
            hours = ReminderTime.hours.map {
                Hour(value: $0, label: ($0 < 10 ? "0" : "") + "\($0):00", selected: $0 == time.hour)
            }
            zones = ZoneOption.all(selected: time.zoneID)
        }
    }

    /// The server's address as a phone's account settings ask for it: iOS and Thunderbird find the
    /// collections from the server alone (`/.well-known`), DAVx⁵ from the DAV address.
    struct CurrencyOption {
        let code: String
        let label: String
        let selected: Bool
    }

    struct PhoneApps {
        let server: String
        let dav: String
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

    /// A device that gets notifications (docs/push.md), with a box for each kind it may be told.
    struct DeviceRow {
        let id: String
        let name: String
        let createdAt: Moment
        let lastUsedAt: Moment?
        let kinds: [KindBox]

        struct KindBox {
            let field: String
            let label: String
            let checked: Bool
        }

        init(_ device: WebPushDeviceDTO, zone: TimeZone?) {
            id = device.id
            name = device.name
            createdAt = Moment(device.createdAt, in: zone)
            lastUsedAt = device.lastUsedAt.map { Moment($0, in: zone) }
            kinds = WebPushKind.allCases.map {
                KindBox(field: AccountModel.kindField($0), label: $0.label, checked: device.kinds.contains($0))
            }
        }
    }

    /// The form field of a kind's box (`kind.before_3`): one field each, as the form reader keeps one value a name.
    static func kindField(_ kind: WebPushKind) -> String { "kind." + kind.rawValue }

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
