import Foundation
import KithCore

/// One contact and everything its vCard shows, read together (`ContactCardLoader`).
struct ContactCardRecords: Sendable {
    let contact: ContactRecord
    let gender: GenderRecord?
    let fields: [(field: ContactFieldRecord, type: ContactFieldTypeRecord)]
    let addresses: [AddressRecord]
    let tags: [TagRecord]
    /// Oldest first.
    let notes: [NoteRecord]
}

/// A contact as a vCard: Kith's fields to the card's and back (`ContactCardChange`).
///
/// | Kith | vCard |
/// |---|---|
/// | first, middle, last name; nickname | N (given; additional; family), FN, NICKNAME |
/// | gender | GENDER (4.0) / X-GENDER (3.0): M, F, or O with the gender's name |
/// | birthdate (known, year unknown, from an age) | BDAY: a date, `--MMDD`, or a year alone |
/// | deceased, and when | DEATHDATE, or `X-KITH-DECEASED:TRUE` without a date |
/// | Email and Phone fields; other fields (Facebook, Whatsapp…) | EMAIL, TEL; X-SOCIALPROFILE or IMPP with the type's name |
/// | addresses | ADR with the address's name as its label, the country's name and code, GEO |
/// | company, job | ORG, TITLE |
/// | tags | CATEGORIES |
/// | notes | NOTE, oldest first, separated by a blank line |
enum ContactCardMapping {
    /// Written when a contact is known to be dead but not when: vCard has no such field.
    static let deceasedMark = "X-KITH-DECEASED"
    /// Field types written as IMPP (a messaging address) rather than a social profile.
    static let messagingTypes: Set<String> = [
        "whatsapp", "telegram", "skype", "signal", "xmpp", "jabber", "icq", "aim",
    ]

    static func card(_ records: ContactCardRecords) -> ContactCard {
        let contact = records.contact
        var card = ContactCard()
        card.name = StructuredName(
            family: contact.lastName ?? "", given: contact.firstName, additional: contact.middleName ?? "")
        card.formattedName = [contact.firstName, contact.middleName, contact.lastName]
            .compactMap { $0?.isEmpty == false ? $0 : nil }.joined(separator: " ")
        card.nickname = contact.nickname
        card.gender = records.gender.map(gender)
        card.birthday = cardDate(contact.birthdateValue)
        if contact.isDead {
            card.deathDate = cardDate(contact.deceasedDateValue)
            if card.deathDate == nil { card.unknown.append(ContentLine(name: deceasedMark, value: "TRUE")) }
        }
        for (field, type) in records.fields {
            switch type.type {
            case "email": card.emails.append(TypedValue(field.data))
            case "phone": card.phones.append(TypedValue(field.data))
            default:
                let service = type.name.lowercased()
                if messagingTypes.contains(service) {
                    card.instantMessaging.append(TypedValue(field.data, types: [service]))
                } else {
                    card.socialProfiles.append(TypedValue(field.data, types: [service]))
                }
            }
        }
        card.addresses = records.addresses.map(address)
        card.organization = contact.company
        card.title = contact.job
        card.categories = records.tags.map(\.name)
        let notes = records.notes.map(\.body)
        card.note = notes.isEmpty ? nil : notes.joined(separator: noteSeparator)
        return card
    }

    static let noteSeparator = "\n\n"

    private static func gender(_ gender: GenderRecord) -> Gender {
        switch gender.type?.uppercased() {
        case "M": Gender(sex: "M", identity: nil)
        case "F": Gender(sex: "F", identity: nil)
        default: Gender(sex: "O", identity: gender.name)
        }
    }

    static func cardDate(_ value: ContactRecord.SpecialDate) -> CardDate? {
        guard let day = value.day else { return nil }
        if value.isYearUnknown { return .monthDay(month: day.month, day: day.day) }
        if value.isAgeBased { return .year(day.year) }
        return .full(year: day.year, month: day.month, day: day.day)
    }

    private static func address(_ address: AddressRecord) -> CardAddress {
        let code = address.country?.uppercased()
        return CardAddress(
            types: [], label: address.name, street: address.street ?? "", locality: address.city ?? "",
            region: address.province ?? "", postalCode: address.postalCode ?? "",
            country: code.map { ISOCountries.names[$0] ?? $0 } ?? "", countryCode: code,
            latitude: address.latitude, longitude: address.longitude)
    }

    /// `card` with what a client sent that Kith keeps only verbatim (`extras`, a card of its own).
    static func merging(_ card: ContactCard, extras: ContactCard?) -> ContactCard {
        guard let extras else { return card }
        var merged = card
        merged.emails += extras.emails
        merged.phones += extras.phones
        merged.addresses += extras.addresses
        merged.socialProfiles += extras.socialProfiles
        merged.instantMessaging += extras.instantMessaging
        merged.urls += extras.urls
        merged.organizationUnits += extras.organizationUnits
        merged.name.prefixes = extras.name.prefixes
        merged.name.suffixes = extras.name.suffixes
        if merged.birthday == nil { merged.birthday = extras.birthday }
        if merged.deathDate == nil { merged.deathDate = extras.deathDate }
        merged.unknown += extras.unknown
        // A card's second NOTE or TITLE was read into the leftovers' own field: it goes back as a line.
        for (name, value) in [("NOTE", extras.note), ("TITLE", extras.title), ("NICKNAME", extras.nickname)] {
            if let value { merged.unknown.append(ContentLine(name: name, value: ContentLines.escapeText(value))) }
        }
        return merged
    }
}
