import Foundation

/// A Kith user's Monica account (`monica_accounts`): the integer id Monica's objects carry as
/// `account.id`, which contact is the user themself, and the version of its contacts that search
/// keys its index on.
struct MonicaAccount: Sendable, Decodable, Equatable {
    let id: Int64
    let meContactID: Int64?
    /// Moves on with every change to the account's contacts that search can see.
    let contactsVersion: Int64
    /// The ISO 4217 code its gifts' values are written in (`MonicaCurrency`).
    let currency: String?

    enum CodingKeys: String, CodingKey {
        case id, currency
        case meContactID = "me_contact_id", contactsVersion = "contacts_version"
    }
}
