import Foundation

/// Reads one BEGIN:VCARD … END:VCARD component into a `ContactCard`: each line it understands
/// into a field, the X-ABLabel and X-ABADR lines of those fields' groups with them, and every
/// other line into `unknown`.
struct ContactCardReader {
    let component: CardComponent
    let lines: [NumberedLine]
    private var card = ContactCard()
    private var consumed = Set<Int>()
    private var seen = Set<String>()
    private var isVersion4 = false
    /// Group (lower-cased) → index of its X-ABLabel / X-ABADR among the component's properties.
    private var labels: [String: Int] = [:]
    private var countryCodes: [String: Int] = [:]

    /// 3.0 instant-messaging properties and the URI scheme each becomes.
    static let legacyMessaging: [String: String] = [
        "X-JABBER": "xmpp", "X-GOOGLE-TALK": "xmpp", "X-GTALK": "xmpp", "X-SKYPE": "skype",
        "X-SKYPE-USERNAME": "skype", "X-AIM": "aim", "X-ICQ": "icq", "X-MSN": "msnim", "X-YAHOO": "ymsgr",
    ]

    init(component: CardComponent, lines: [NumberedLine]) {
        self.component = component
        self.lines = lines
    }

    mutating func read() throws(CardFormatError) -> ContactCard {
        let properties = component.properties
        if let version = properties.first(where: { $0.line.name == "VERSION" }) {
            let value = version.line.value.trimmingCharacters(in: .whitespaces)
            guard ["2.1", "3.0", "4.0"].contains(value) else {
                throw CardFormatError(
                    line: version.number,
                    message: "Line \(version.number) says VERSION:\(value); Kith reads vCard 3.0 and 4.0 (and 2.1 as "
                        + "best it can).")
            }
            isVersion4 = value == "4.0"
        }
        for (index, numbered) in properties.enumerated() {
            guard let group = numbered.line.group?.lowercased() else { continue }
            switch numbered.line.name {
            case "X-ABLABEL": labels[group] = labels[group] ?? index
            case "X-ABADR": countryCodes[group] = countryCodes[group] ?? index
            default: break
            }
        }
        for (index, numbered) in properties.enumerated() where !consumed.contains(index) {
            if read(numbered.line) { consumed.insert(index) }
        }
        card.unknown = properties.indices.filter { !consumed.contains($0) }.map { properties[$0].line }
        // A component nested in a card (a 2.1 AGENT) is kept, line for line, after the rest.
        for child in component.children { card.unknown += lines[child.range].map(\.line) }
        return card
    }

    /// The line's value with a 2.1 quoted-printable encoding undone.
    private func rawValue(_ line: ContentLine) -> String {
        line.parameter("ENCODING").contains { $0.uppercased() == "QUOTED-PRINTABLE" }
            ? QuotedPrintable.decode(line.value) : line.value
    }

    private func text(_ line: ContentLine) -> String { ContentLines.unescapeText(rawValue(line)) }

    /// Whether the property was read into a field (else it is kept in `unknown`). Single-valued
    /// fields take their first line; a second FN, NOTE… stays unknown.
    private mutating func read(_ line: ContentLine) -> Bool {
        let single = [
            "UID", "FN", "N", "NICKNAME", "GENDER", "X-GENDER", "BDAY", "DEATHDATE", "X-DEATHDATE", "ORG", "TITLE",
            "NOTE",
        ]
        if single.contains(line.name) {
            let key = line.name.replacingOccurrences(of: "X-", with: "")
            guard !seen.contains(key) else { return false }
            guard readSingle(line) else { return false }
            seen.insert(key)
            return true
        }
        switch line.name {
        case "VERSION", "PRODID":
            return true
        case "EMAIL":
            var email = typed(line, value: text(line))
            email.types.removeAll { $0 == "internet" }
            card.emails.append(email)
        case "TEL":
            var number = text(line)
            if number.lowercased().hasPrefix("tel:") { number = String(number.dropFirst(4)) }
            card.phones.append(typed(line, value: number))
        case "URL":
            card.urls.append(typed(line, value: text(line)))
        case "X-SOCIALPROFILE", "SOCIALPROFILE":
            var profile = typed(line, value: text(line), interpreted: ["SERVICE-TYPE"])
            if let service = line.parameter("SERVICE-TYPE").first?.lowercased() {
                profile.types.removeAll { $0 == service }
                profile.types.insert(service, at: 0)
            }
            card.socialProfiles.append(profile)
        case "IMPP":
            card.instantMessaging.append(messaging(line, uri: text(line)))
        case let name where ContactCardReader.legacyMessaging[name] != nil:
            let scheme = ContactCardReader.legacyMessaging[name] ?? ""
            card.instantMessaging.append(messaging(line, uri: "\(scheme):\(text(line))"))
        case "ADR":
            card.addresses.append(address(line))
        case "CATEGORIES":
            card.categories += ContentLines.splitComponents(rawValue(line), separator: ",").filter { !$0.isEmpty }
        default:
            return false
        }
        return true
    }

    private mutating func readSingle(_ line: ContentLine) -> Bool {
        switch line.name {
        case "UID": card.uid = text(line)
        case "FN": card.formattedName = text(line)
        case "N":
            let parts = ContentLines.splitComponents(rawValue(line), separator: ";") + Array(repeating: "", count: 5)
            card.name = StructuredName(
                family: parts[0], given: parts[1], additional: parts[2], prefixes: parts[3], suffixes: parts[4])
        case "NICKNAME": card.nickname = text(line)
        case "GENDER":
            let parts = ContentLines.splitComponents(rawValue(line), separator: ";")
            let sex = parts[0].trimmingCharacters(in: .whitespaces).uppercased()
            let identity = parts.count > 1 ? parts[1] : ""
            card.gender = Gender(sex: sex.isEmpty ? nil : sex, identity: identity.isEmpty ? nil : identity)
        case "X-GENDER":
            let value = text(line)
            guard !value.isEmpty else { return false }
            card.gender = Gender(xGender: value)
        case "BDAY", "DEATHDATE", "X-DEATHDATE":
            guard line.parameter("VALUE").allSatisfy({ $0.lowercased() != "text" }),
                let date = CardDate(
                    vCardValue: rawValue(line),
                    omittedYear: line.parameter("X-APPLE-OMIT-YEAR").first.flatMap { Int($0) })
            else { return false }
            if line.name == "BDAY" { card.birthday = date } else { card.deathDate = date }
        case "ORG":
            let parts = ContentLines.splitComponents(rawValue(line), separator: ";")
            card.organization = parts[0]
            var units = Array(parts.dropFirst())
            while units.last == "" { units.removeLast() }
            card.organizationUnits = units
        case "TITLE": card.title = text(line)
        case "NOTE": card.note = text(line)
        default: return false
        }
        return true
    }

    /// Parameters every typed value reads itself: TYPE (lower-cased, comma lists split), PREF=1
    /// (as "pref"), VALUE, and the 2.1 encodings; the rest are kept on the value.
    private mutating func typed(_ line: ContentLine, value: String, interpreted: Set<String> = []) -> TypedValue {
        var types: [String] = []
        for raw in line.parameter("TYPE") {
            for type in raw.split(separator: ",") {
                let lower = type.trimmingCharacters(in: .whitespaces).lowercased()
                if !lower.isEmpty, !types.contains(lower) { types.append(lower) }
            }
        }
        var kept: [ContentLine.Parameter] = []
        for parameter in line.parameters {
            switch parameter.name.uppercased() {
            case "TYPE", "VALUE", "CHARSET", "ENCODING": continue
            case "PREF" where parameter.values == ["1"]:
                if !types.contains("pref") { types.append("pref") }
            case let name where interpreted.contains(name): continue
            default: kept.append(parameter)
            }
        }
        return TypedValue(value, types: types, label: label(for: line), parameters: kept)
    }

    /// The group's X-ABLabel, which is then read with this line (not kept in `unknown`).
    private mutating func label(for line: ContentLine) -> String? {
        guard let group = line.group?.lowercased(), let index = labels[group] else { return nil }
        consumed.insert(index)
        return ContentLines.unescapeText(component.properties[index].line.value)
    }

    private mutating func messaging(_ line: ContentLine, uri: String) -> TypedValue {
        var value = typed(line, value: uri, interpreted: ["X-SERVICE-TYPE"])
        let service = line.parameter("X-SERVICE-TYPE").first?.lowercased() ?? ContactCardReader.scheme(of: uri)
        if let service, !service.isEmpty {
            value.types.removeAll { $0 == service }
            value.types.insert(service, at: 0)
        }
        return value
    }

    /// A URI's scheme, lower-cased: "whatsapp" for "whatsapp:+4912345".
    static func scheme(of uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":"), colon > uri.startIndex else { return nil }
        let scheme = uri[..<colon]
        guard scheme.first?.isLetter == true,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    private mutating func address(_ line: ContentLine) -> CardAddress {
        let typedPart = typed(line, value: "", interpreted: ["LABEL", "GEO"])
        let parts = ContentLines.splitComponents(rawValue(line), separator: ";") + Array(repeating: "", count: 7)
        var address = CardAddress(
            types: typedPart.types, label: typedPart.label ?? line.parameter("LABEL").first, poBox: parts[0],
            extended: parts[1], street: parts[2], locality: parts[3], region: parts[4], postalCode: parts[5],
            country: parts[6], parameters: typedPart.parameters)
        if let group = line.group?.lowercased(), let index = countryCodes[group] {
            consumed.insert(index)
            let code = ContentLines.unescapeText(component.properties[index].line.value).trimmingCharacters(
                in: .whitespaces)
            address.countryCode = code.isEmpty ? nil : code.uppercased()
        }
        if address.countryCode == nil, let implied = CardAddress.impliedCode(address.country) {
            address.countryCode = implied
        }
        if let geo = line.parameter("GEO").first, let point = CardAddress.geo(geo) {
            address.latitude = point.latitude
            address.longitude = point.longitude
        }
        return address
    }
}

extension CardAddress {
    /// "DE" for a country written as two ASCII letters.
    static func impliedCode(_ country: String) -> String? {
        guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        return country.uppercased()
    }

    /// "geo:52.52,13.40" (RFC 5870; a ";u=…" tail is ignored).
    static func geo(_ uri: String) -> (latitude: Double, longitude: Double)? {
        guard uri.lowercased().hasPrefix("geo:") else { return nil }
        let body = uri.dropFirst(4).split(separator: ";", maxSplits: 1).first ?? ""
        let numbers = body.split(separator: ",")
        guard numbers.count >= 2, let latitude = Double(numbers[0]), let longitude = Double(numbers[1]),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        return (latitude, longitude)
    }
}
