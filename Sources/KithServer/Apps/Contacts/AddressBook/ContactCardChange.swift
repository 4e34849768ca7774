import Foundation
import KithCore

/// What a vCard a client wrote makes of a contact (the reverse of `ContactCardMapping`), checked
/// by `/api`'s own rules before anything is written. What Kith has no field for (a URL, a photo,
/// an address in a country it cannot name, an email longer than a field holds or that is no email,
/// a phone number of letters, a birthday in the future) is kept verbatim
/// in `leftovers`, given back on every download; what it could store but the rules refuse (a
/// first name of 300 characters) refuses the whole card with `/api`'s sentence.
///
/// A card that does not mention the gender or a death leaves them as they are: phones that have
/// no such field (iOS over vCard 3.0) send cards without them, and must not erase them.
struct ContactCardChange: Sendable {
    var names: [String: String?]
    var genderID: Int64??
    var birthdate: SpecialDateValue?
    var death: (isDead: Bool, date: SpecialDateValue)?
    var job: String?
    var company: String?
    /// Each field: its type and value, in the card's order.
    var fields: [(typeID: Int64, data: String)] = []
    var addresses: [MonicaColumns] = []
    var tags: [String] = []
    var note: String?
    var leftovers = ContactCard()

    /// The change `card` makes, given the account's genders and field types.
    init(
        _ card: ContactCard, genders: [GenderRecord], types: [ContactFieldTypeRecord], today: MonicaDate
    ) throws {
        let given = card.name.given.trimmedWhitespace
        let fallback = [card.formattedName, card.nickname ?? "", card.organization ?? ""]
            .map(\.trimmedWhitespace).first { !$0.isEmpty }
        let first = given.isEmpty ? (fallback ?? "") : given
        var input: [String: JSONTree] = [
            "first_name": first.isEmpty ? .null : .string(first),
            "middle_name": .string(card.name.additional),
            "last_name": .string(card.name.family),
            "nickname": card.nickname.map(JSONTree.string) ?? .null,
        ]
        if first.isEmpty { input["first_name"] = .string(card.emails.first?.value ?? "Unnamed") }
        let valid = try MonicaValidator.validate(MonicaInput(input), ContactsRoutes.nameRules)
        names = [:]
        for name in ["first_name", "middle_name", "last_name", "nickname"] { names[name] = valid.string(name) }
        leftovers.name.prefixes = card.name.prefixes
        leftovers.name.suffixes = card.name.suffixes
        leftovers.organizationUnits = card.organizationUnits

        genderID = card.gender.flatMap { Self.gender($0, in: genders) }.map { .some($0.id) }
        // A date Kith cannot store (a year before 1, an age past the oldest) is kept verbatim.
        if let birthday = card.birthday {
            birthdate = try? Self.date(birthday, today: today, attribute: "birthdate")
            if birthdate == nil { leftovers.birthday = birthday }
        }
        if let deathDate = card.deathDate {
            let date = try? Self.date(deathDate, today: today, attribute: "deceased date")
            if date == nil { leftovers.deathDate = deathDate }
            death = (true, date ?? .unknown)
        } else if card.unknown.contains(where: { $0.name == ContactCardMapping.deceasedMark }) {
            death = (true, .unknown)
        }

        let about = try MonicaValidator.validate(
            MonicaInput([
                "job": card.title.map(JSONTree.string) ?? .null,
                "company": card.organization.map(JSONTree.string) ?? .null,
            ]),
            [FieldRules("job", .nullable, .string, .max(255)), FieldRules("company", .nullable, .string, .max(255))])
        job = about.string("job")
        company = about.string("company")

        let byKind = Dictionary(grouping: types) { $0.type ?? "" }
        let email = byKind["email"]?.min { $0.id < $1.id }
        let phone = byKind["phone"]?.min { $0.id < $1.id }
        func typed(_ service: String?) -> ContactFieldTypeRecord? {
            guard let service = service?.lowercased() else { return nil }
            return types.first { $0.type == nil && $0.name.lowercased() == service }
        }
        for value in card.emails { keep(value, as: email, else: { $0.emails.append(value) }) }
        for value in card.phones { keep(value, as: phone, else: { $0.phones.append(value) }) }
        for value in card.socialProfiles {
            keep(value, as: typed(value.types.first), else: { $0.socialProfiles.append(value) })
        }
        for value in card.instantMessaging {
            keep(value, as: typed(value.types.first), else: { $0.instantMessaging.append(value) })
        }
        leftovers.urls = card.urls

        for address in card.addresses {
            guard let columns = Self.columns(of: address) else {
                leftovers.addresses.append(address)
                continue
            }
            addresses.append(columns)
        }
        let tagRules = [FieldRules("name", .required, .string, .max(255))]
        for category in card.categories where !category.trimmedWhitespace.isEmpty {
            let valid = try MonicaValidator.validate(MonicaInput(["name": .string(category)]), tagRules)
            if let name = valid.string("name"), !tags.contains(name) { tags.append(name) }
        }
        if let note = card.note?.trimmedWhitespace, !note.isEmpty {
            self.note = try MonicaValidator.validate(MonicaInput(["body": .string(note)]), [NotesRoutes.rules[0]])
                .string("body")
        }
        leftovers.unknown = card.unknown.filter { $0.name != ContactCardMapping.deceasedMark }
    }

    /// A field of `type` when Kith has the type and the value fits a field (255 characters, as
    /// `/api`'s rule); else the card's line is kept verbatim.
    private mutating func keep(
        _ value: TypedValue, as type: ContactFieldTypeRecord?, else leave: (inout ContactCard) -> Void
    ) {
        let data = value.value.trimmedWhitespace
        // A value `/api` would refuse for its type (an EMAIL with no @, a TEL of letters) is not
        // refused here: the phone keeps it and gets it back verbatim, instead of a card that can
        // never sync.
        guard let type, !data.isEmpty, data.unicodeScalars.count <= 255,
            ContactValueFormats.problem(kind: type.type, value: data, attribute: "data") == nil
        else {
            leave(&leftovers)
            return
        }
        fields.append((type.id, data))
    }

    private static func gender(_ gender: Gender, in genders: [GenderRecord]) -> GenderRecord? {
        if let identity = gender.identity?.trimmedWhitespace, !identity.isEmpty,
            let named = genders.first(where: { $0.name.lowercased() == identity.lowercased() })
        {
            return named
        }
        let sex = gender.sex?.uppercased() ?? ""
        let type = ["M": "M", "F": "F"][sex] ?? (sex.isEmpty ? nil : "O")
        guard let type else { return nil }
        return genders.filter { $0.type?.uppercased() == type }.min { $0.id < $1.id }
    }

    private static func date(_ date: CardDate, today: MonicaDate, attribute: String) throws -> SpecialDateValue {
        let input: SpecialDateInput
        switch date {
        case .full(let year, let month, let day):
            input = SpecialDateInput(
                known: true, ageBased: false, day: Int64(day), month: Int64(month), year: Int64(year), age: nil)
        case .monthDay(let month, let day):
            // Stored in a year that has the day (29 February: the last leap year); the year stays unknown.
            // Built here rather than as a dated input: a day later this year is no future date.
            var year = today.year
            while MonicaDate(year: year, month: month, day: day) == nil && year > today.year - 8 { year -= 1 }
            guard let stored = MonicaDate(year: year, month: month, day: day) else {
                throw MonicaError.invalid("The \(attribute) is not a valid date.")
            }
            return SpecialDateValue(day: stored, isAgeBased: false, isYearUnknown: true)
        case .year(let year):
            input = SpecialDateInput(
                known: true, ageBased: true, day: nil, month: nil, year: nil, age: Int64(today.year - year))
        }
        return try input.value(today: today, attribute: attribute)
    }

    /// An address's columns, checked by `/api`'s rules; nil when Kith cannot keep it whole (a
    /// country it cannot name, a part too long).
    private static func columns(of address: CardAddress) -> MonicaColumns? {
        var country: String?
        if let code = address.countryCode?.uppercased(), ISOCountries.names[code] != nil {
            country = code
        } else if !address.country.trimmedWhitespace.isEmpty {
            guard let code = ISOCountries.code(naming: address.country) else { return nil }
            country = code
        }
        let street = [address.poBox, address.extended, address.street].map(\.trimmedWhitespace).filter { !$0.isEmpty }
            .joined(separator: "\n")
        let label = address.displayLabel ?? address.types.first { $0 != "pref" }?.capitalized
        var input: [String: JSONTree] = [
            "contact_id": .int(0), "name": label.map(JSONTree.string) ?? .null, "street": .string(street),
            "city": .string(address.locality), "province": .string(address.region),
            "postal_code": .string(address.postalCode), "country": country.map(JSONTree.string) ?? .null,
        ]
        if let latitude = address.latitude, let longitude = address.longitude {
            input["latitude"] = .double(latitude)
            input["longitude"] = .double(longitude)
        }
        guard let valid = try? MonicaValidator.validate(MonicaInput(input), AddressesRoutes.rules) else { return nil }
        var columns: MonicaColumns = [:]
        for name in ["name", "street", "city", "province", "postal_code", "country"] {
            columns[name] = .text(valid.string(name))
        }
        guard columns.values.contains(where: { $0 != .null }) else { return nil }
        columns["latitude"] = DBValue.double(valid.double("latitude"))
        columns["longitude"] = DBValue.double(valid.double("longitude"))
        return columns
    }
}
