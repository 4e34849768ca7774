import Foundation

/// N: family; given; additional; prefixes; suffixes ("" when absent).
public struct StructuredName: Sendable, Equatable {
    public var family: String
    public var given: String
    public var additional: String
    public var prefixes: String
    public var suffixes: String

    public init(
        family: String = "", given: String = "", additional: String = "", prefixes: String = "", suffixes: String = ""
    ) {
        self.family = family
        self.given = given
        self.additional = additional
        self.prefixes = prefixes
        self.suffixes = suffixes
    }

    var components: [String] { [family, given, additional, prefixes, suffixes] }
}

/// An email, phone, URL, social profile or instant-messaging address with its types (lower-cased:
/// "home", "work", "cell", "pref"…) and the name a person gave it on an Apple device (the
/// `item1.X-ABLabel` next to it).
public struct TypedValue: Sendable, Equatable {
    public var value: String
    public var types: [String]
    /// Apple's `item1.X-ABLabel`, as written: a person's own ("Cottage") or one of Apple's
    /// (`_$!<Mobile>!$_`; `displayLabel` shows "Mobile").
    public var label: String?
    /// Parameters Kith does not interpret (`X-USER` on a social profile, `PREF=2`, `PID`…), kept
    /// so the value is written back with them.
    public var parameters: [ContentLine.Parameter]

    public init(_ value: String, types: [String] = [], label: String? = nil, parameters: [ContentLine.Parameter] = []) {
        self.value = value
        self.types = types
        self.label = label
        self.parameters = parameters
    }

    /// Whether the card marks it preferred (3.0 `TYPE=pref`, 4.0 `PREF=1`).
    public var isPreferred: Bool { types.contains("pref") }

    /// The label as a person reads it: Apple's built-in `_$!<HomePage>!$_` as "HomePage".
    public var displayLabel: String? { label.map(AppleLabel.display) }
}

/// ADR, with what Apple and vCard 4.0 add to it.
public struct CardAddress: Sendable, Equatable {
    public var types: [String]
    /// The name a person gave the address: Apple's X-ABLabel, else a 4.0 LABEL parameter.
    public var label: String?
    public var poBox: String
    public var extended: String
    public var street: String
    public var locality: String
    public var region: String
    public var postalCode: String
    public var country: String
    /// The ISO 3166 code, upper-cased, when the card says it: Apple's `item1.X-ABADR:us`, or a
    /// country written as two letters ("DE").
    public var countryCode: String?
    /// 4.0's `GEO="geo:lat,lon"` parameter.
    public var latitude: Double?
    public var longitude: Double?
    /// Parameters Kith does not interpret, written back as they came.
    public var parameters: [ContentLine.Parameter]

    public init(
        types: [String] = [], label: String? = nil, poBox: String = "", extended: String = "", street: String = "",
        locality: String = "", region: String = "", postalCode: String = "", country: String = "",
        countryCode: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
        parameters: [ContentLine.Parameter] = []
    ) {
        self.types = types
        self.label = label
        self.poBox = poBox
        self.extended = extended
        self.street = street
        self.locality = locality
        self.region = region
        self.postalCode = postalCode
        self.country = country
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.parameters = parameters
    }

    var components: [String] { [poBox, extended, street, locality, region, postalCode, country] }

    /// The label as a person reads it (Apple's `_$!<Home>!$_` as "Home").
    public var displayLabel: String? { label.map(AppleLabel.display) }
}

/// vCard 4.0 GENDER: a sex (M, F, O, N, U) and free text for the gender identity.
public struct Gender: Sendable, Equatable {
    public var sex: String?
    public var identity: String?

    public init(sex: String? = nil, identity: String? = nil) {
        self.sex = sex
        self.identity = identity
    }

    /// 3.0 X-GENDER as Apple, Google and DAVx5 write it: "Male", "Female", else the text.
    static let words = ["M": "Male", "F": "Female", "O": "Other", "N": "None", "U": "Unknown"]

    init(xGender text: String) {
        let lower = text.lowercased()
        if let sex = Gender.words.first(where: { $0.value.lowercased() == lower || $0.key.lowercased() == lower })?.key
        {
            self.init(sex: sex)
        } else {
            self.init(identity: text)
        }
    }

    /// The X-GENDER text: the identity when there is one (the sex letter is then not written),
    /// else the word for the sex.
    var xGenderText: String? { identity ?? sex.map { Gender.words[$0.uppercased()] ?? $0 } }
}

enum AppleLabel {
    /// `_$!<Mobile>!$_` → "Mobile"; any other label as it is.
    static func display(_ label: String) -> String {
        guard label.hasPrefix("_$!<"), label.hasSuffix(">!$_"), label.count > 8 else { return label }
        return String(label.dropFirst(4).dropLast(4))
    }
}
