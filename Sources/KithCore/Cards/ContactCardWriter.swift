import Foundation

/// Writes a `ContactCard` as content lines: the fields in a fixed order, each labelled value in an
/// `itemN` group of its own (numbers the unknown lines do not use), then the unknown lines.
struct ContactCardWriter {
    let card: ContactCard
    let version: ContactCard.Version
    private var usedGroups: Set<String>
    private var nextGroup = 1
    private var out: [ContentLine] = []

    init(card: ContactCard, version: ContactCard.Version) {
        self.card = card
        self.version = version
        usedGroups = Set(card.unknown.compactMap { $0.group?.lowercased() })
    }

    func lines() -> [ContentLine] {
        var writer = self
        writer.writeAll()
        return writer.out
    }

    private mutating func add(
        _ name: String, _ value: String, _ parameters: [ContentLine.Parameter] = [], group: String? = nil
    ) {
        out.append(ContentLine(group: group, name: name, parameters: parameters, value: value))
    }

    private mutating func newGroup() -> String {
        while usedGroups.contains("item\(nextGroup)") { nextGroup += 1 }
        defer { nextGroup += 1 }
        return "item\(nextGroup)"
    }

    private static func escape(_ text: String) -> String { ContentLines.escapeText(text) }

    /// A URI value: only a backslash and line breaks are escaped (commas and semicolons belong to
    /// URIs), which `unescapeText` undoes.
    private static func escapeURI(_ uri: String) -> String {
        uri.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\r\n", with: "\\n")
            .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\n")
    }

    private mutating func writeAll() {
        add("BEGIN", "VCARD")
        add("VERSION", version.rawValue)
        add("PRODID", "-//Kith//Kith//EN")
        if !card.uid.isEmpty { add("UID", Self.escape(card.uid)) }
        add("FN", Self.escape(card.formattedName))
        add("N", ContentLines.joinComponents(card.name.components, separator: ";"))
        if let nickname = card.nickname { add("NICKNAME", Self.escape(nickname)) }
        if let gender = card.gender {
            switch version {
            case .v4:
                let identity = gender.identity.map { ";" + Self.escape($0) } ?? ""
                add("GENDER", Self.escape(gender.sex ?? "") + identity)
            case .v3:
                if let text = gender.xGenderText { add("X-GENDER", Self.escape(text)) }
            }
        }
        if let birthday = card.birthday {
            let (value, parameters) = birthday.vCardValue(version)
            add("BDAY", value, parameters)
        }
        if let deathDate = card.deathDate {
            let (value, parameters) = deathDate.vCardValue(version)
            add(version == .v4 ? "DEATHDATE" : "X-DEATHDATE", value, parameters)
        }
        for email in card.emails { typed("EMAIL", email, value: Self.escape(email.value)) }
        for phone in card.phones { typed("TEL", phone, value: Self.escape(phone.value)) }
        for address in card.addresses { write(address) }
        if card.organization != nil || !card.organizationUnits.isEmpty {
            add("ORG", ContentLines.joinComponents([card.organization ?? ""] + card.organizationUnits, separator: ";"))
        }
        if let title = card.title { add("TITLE", Self.escape(title)) }
        if !card.categories.isEmpty { add("CATEGORIES", ContentLines.joinComponents(card.categories, separator: ",")) }
        if let note = card.note { add("NOTE", Self.escape(note)) }
        for profile in card.socialProfiles { typed("X-SOCIALPROFILE", profile, value: Self.escapeURI(profile.value)) }
        for messaging in card.instantMessaging { writeMessaging(messaging) }
        for url in card.urls { typed("URL", url, value: Self.escapeURI(url.value)) }
        out += card.unknown
        add("END", "VCARD")
    }

    /// TYPE (and in 4.0 PREF=1 for "pref"), the kept parameters, and the label in a group.
    private func typeParameters(_ types: [String]) -> [ContentLine.Parameter] {
        var parameters: [ContentLine.Parameter] = []
        let plain = version == .v4 ? types.filter { $0 != "pref" } : types
        if !plain.isEmpty { parameters.append(ContentLine.Parameter(name: "TYPE", values: plain)) }
        if version == .v4, types.contains("pref") {
            parameters.append(ContentLine.Parameter(name: "PREF", values: ["1"]))
        }
        return parameters
    }

    private mutating func typed(
        _ name: String, _ typed: TypedValue, value: String, leading: [ContentLine.Parameter] = [],
        types: [String]? = nil
    ) {
        let group = typed.label == nil ? nil : newGroup()
        add(name, value, leading + typeParameters(types ?? typed.types) + typed.parameters, group: group)
        if let label = typed.label, let group { add("X-ABLabel", Self.escape(label), group: group) }
    }

    /// IMPP: when the URI has a scheme, the first type is the service, written as X-SERVICE-TYPE
    /// only when it differs from the scheme.
    private mutating func writeMessaging(_ messaging: TypedValue) {
        var leading: [ContentLine.Parameter] = []
        var types = messaging.types
        if let scheme = ContactCardReader.scheme(of: messaging.value), let service = types.first {
            types.removeFirst()
            if service != scheme { leading.append(ContentLine.Parameter(name: "X-SERVICE-TYPE", values: [service])) }
        }
        typed("IMPP", messaging, value: Self.escapeURI(messaging.value), leading: leading, types: types)
    }

    private mutating func write(_ address: CardAddress) {
        let writesCode = address.countryCode != nil && address.countryCode != CardAddress.impliedCode(address.country)
        let group = address.label != nil || writesCode ? newGroup() : nil
        var parameters = typeParameters(address.types)
        if let latitude = address.latitude, let longitude = address.longitude {
            parameters.append(ContentLine.Parameter(name: "GEO", values: ["geo:\(latitude),\(longitude)"]))
        }
        add(
            "ADR", ContentLines.joinComponents(address.components, separator: ";"), parameters + address.parameters,
            group: group)
        if let group, let label = address.label { add("X-ABLabel", Self.escape(label), group: group) }
        if let group, writesCode, let code = address.countryCode {
            add("X-ABADR", Self.escape(code.lowercased()), group: group)
        }
    }
}
