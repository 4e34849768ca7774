import Foundation

/// A contact as CardDAV carries it (vCard 3.0, RFC 2426, and 4.0, RFC 6350): the fields Kith
/// shows and edits, and every other line kept as it came, so that a card read and written back
/// keeps what another app put on it (photos, anniversaries, related people, X- fields).
///
/// Reading then writing is lossless for `unknown` and for what the fields hold; writing then
/// reading gives an equal card (`ContactCardTests`), with these normal forms: types lower-cased,
/// "internet" dropped from emails, and in 4.0 "pref" last (it is written as PREF=1); a country
/// written as two letters gives `countryCode`; a 3.0 gender is one X-GENDER text (below).
public struct ContactCard: Sendable, Equatable {
    public enum Version: String, Sendable { case v3 = "3.0", v4 = "4.0" }

    public var uid: String
    /// FN.
    public var formattedName: String
    /// N.
    public var name: StructuredName
    public var nickname: String?
    /// 4.0 GENDER. In 3.0 Kith reads and writes X-GENDER as Apple, Google and DAVx5 do: "Male" or
    /// "Female" for M and F, else the identity text (or "Other", "None", "Unknown"); a 3.0 card
    /// cannot say both a sex and an identity, so writing one keeps the identity. Either version
    /// reads both spellings.
    public var gender: Gender?
    /// BDAY.
    public var birthday: CardDate?
    /// DEATHDATE (RFC 6474); X-DEATHDATE in 3.0.
    public var deathDate: CardDate?
    /// EMAIL.
    public var emails: [TypedValue]
    /// TEL: the number as text (a 4.0 `tel:` URI without its "tel:").
    public var phones: [TypedValue]
    /// ADR, with Apple's label and country code and 4.0's GEO.
    public var addresses: [CardAddress]
    /// ORG's first component (the company).
    public var organization: String?
    /// ORG's other components (departments), kept so a card keeps them.
    public var organizationUnits: [String]
    /// TITLE.
    public var title: String?
    /// CATEGORIES (Google's "myContacts", "starred"; a person's groups).
    public var categories: [String]
    /// NOTE.
    public var note: String?
    /// X-SOCIALPROFILE (and 4.0 SOCIALPROFILE on read): types start with the service ("twitter",
    /// "facebook", "linkedin"…); the value is the profile URL or user name.
    public var socialProfiles: [TypedValue]
    /// IMPP, and 3.0's X-JABBER, X-SKYPE, X-AIM, X-ICQ, X-MSN, X-YAHOO, X-GOOGLE-TALK read as IMPP.
    /// The value is the URI as written ("xmpp:alice@example.com"); when the URI has a scheme,
    /// `types` starts with the service: Apple's X-SERVICE-TYPE, else the scheme ("whatsapp",
    /// "telegram", "xmpp", "skype"…), lower-cased.
    public var instantMessaging: [TypedValue]
    /// URL.
    public var urls: [TypedValue]
    /// Every other line, verbatim and in order: PHOTO, ANNIVERSARY, RELATED, REV, X-ABDATE and
    /// its X-ABLabel, a second NOTE…; written back after the fields.
    public var unknown: [ContentLine]

    public init(
        uid: String = "", formattedName: String = "", name: StructuredName = StructuredName(), nickname: String? = nil,
        gender: Gender? = nil, birthday: CardDate? = nil, deathDate: CardDate? = nil, emails: [TypedValue] = [],
        phones: [TypedValue] = [], addresses: [CardAddress] = [], organization: String? = nil,
        organizationUnits: [String] = [], title: String? = nil, categories: [String] = [], note: String? = nil,
        socialProfiles: [TypedValue] = [], instantMessaging: [TypedValue] = [], urls: [TypedValue] = [],
        unknown: [ContentLine] = []
    ) {
        self.uid = uid
        self.formattedName = formattedName
        self.name = name
        self.nickname = nickname
        self.gender = gender
        self.birthday = birthday
        self.deathDate = deathDate
        self.emails = emails
        self.phones = phones
        self.addresses = addresses
        self.organization = organization
        self.organizationUnits = organizationUnits
        self.title = title
        self.categories = categories
        self.note = note
        self.socialProfiles = socialProfiles
        self.instantMessaging = instantMessaging
        self.urls = urls
        self.unknown = unknown
    }

    /// The cards in a body: one, or many (a Google Contacts or iCloud export). Reads vCard 3.0 and
    /// 4.0, and 2.1 as best it can (quoted-printable values decoded, bare TYPE parameters).
    public static func parse(_ text: String) throws(CardFormatError) -> [ContactCard] {
        let lines = try ContentLines.parseNumbered(text)
        guard lines.contains(where: { $0.line.name == "BEGIN" }) else {
            throw CardFormatError(
                line: nil,
                message: "The text has no BEGIN:VCARD: it is not a vCard (a contact file starts with BEGIN:VCARD).")
        }
        let components = try ContentLines.components(lines) { stray in
            CardFormatError(
                line: stray.number,
                message: "Line \(stray.number) is outside BEGIN:VCARD … END:VCARD: every line of a contact goes "
                    + "between the two.")
        }
        var cards: [ContactCard] = []
        for component in components {
            guard component.name == "VCARD" else {
                throw CardFormatError(
                    line: component.beginLine,
                    message: "Line \(component.beginLine) begins \(component.name) where a contact (BEGIN:VCARD) "
                        + "was expected.")
            }
            var reader = ContactCardReader(component: component, lines: lines)
            cards.append(try reader.read())
        }
        return cards
    }

    /// The card as a vCard body: BEGIN, VERSION, PRODID:-//Kith//Kith//EN, UID, FN, N, the
    /// fields, the unknown lines, END; CRLF, folded at 75 octets.
    public func write(_ version: Version) -> String {
        ContentLines.write(ContactCardWriter(card: self, version: version).lines())
    }
}
