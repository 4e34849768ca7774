import Crypto
import Foundation
import KithCore

/// Writes contacts as Monica does: the short form nested in every other object, and the full
/// form of the contacts endpoints (reduced for partial contacts).
enum ContactPresenter {
    static func short(_ summary: ContactSummary, _ presentation: MonicaPresentation) -> JSONTree {
        let record = summary.record
        var object = JSONObject(head(summary, presentation))
        object["information"] = [
            "birthdate": specialDate(record.birthdateValue), "deceased_date": specialDate(record.deceasedDateValue),
            "avatar": avatar(record),
        ]
        if !record.isPartial { object["url"] = .string(presentation.url("contacts/\(record.id)")) }
        object["account"] = ["id": .int(presentation.accountID)]
        return .object(object)
    }

    static func full(_ details: ContactDetails, _ presentation: MonicaPresentation) -> JSONTree {
        let record = details.record
        let partial = record.isPartial
        var object = JSONObject(head(details.summary, presentation, description: true))
        if !partial {
            object["last_called"] = .nullable(record.lastCalled.map(carbon))
            object["last_activity_together"] = .nullable(details.lastActivity.map(carbon))
            object["stay_in_touch_frequency"] = .nullable(record.stayInTouchFrequency)
            object["stay_in_touch_trigger_date"] = .nullable(MonicaTimestamp.format(millis: record.stayInTouchTriggerDate))
        }
        var information = JSONObject()
        if !partial { information["relationships"] = relationships(details, presentation) }
        information["dates"] = [
            "birthdate": specialDate(record.birthdateValue), "deceased_date": specialDate(record.deceasedDateValue),
        ]
        if !partial {
            information["career"] = ["job": .nullable(record.job), "company": .nullable(record.company)]
            information["avatar"] = avatar(record)
            information["food_preferences"] = .nullable(record.foodPreferences)
            information["how_you_met"] = [
                "general_information": .nullable(record.firstMetGeneralInformation),
                "first_met_date": specialDate(record.firstMetDateValue),
                "first_met_through_contact": .nullable(details.firstMetThrough.map { short($0, presentation) }),
            ]
        }
        object["information"] = .object(information)
        if !partial {
            let summary = short(details.summary, presentation)
            object["addresses"] = .array(details.addresses.map { AddressPresenter.present($0, contact: summary, presentation) })
            object["tags"] = .array(details.tags.map { TagPresenter.present($0, presentation) })
            object["statistics"] = .object(
                JSONObject(ContactDetailsLoader.statisticsSources.map { ($0.key, .int(details.counts[$0.key] ?? 0)) }))
            if let fields = details.contactFields {
                object["contactFields"] = .array(
                    fields.map { ContactFieldPresenter.present($0.field, type: $0.type, contact: summary, presentation) })
                object["notes"] = .array(
                    (details.latestNotes ?? []).map { NotePresenter.present($0, contact: summary, presentation) })
            }
            object["url"] = .string(presentation.url("contacts/\(record.id)"))
        }
        for (key, value) in presentation.stamps(record) { object[key] = value }
        return .object(object)
    }

    private static func head(_ summary: ContactSummary, _ presentation: MonicaPresentation, description: Bool = false)
        -> [(String, JSONTree)]
    {
        let record = summary.record
        let name = record.completeName
        var members: [(String, JSONTree)] = [
            ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "contact"),
            ("hash_id", .string(record.isPartial ? "" : hashID(record.id))),
            ("first_name", .string(record.firstName)), ("last_name", .nullable(record.lastName)),
            ("nickname", .nullable(record.nickname)), ("complete_name", .string(name)),
            ("initials", .string(initials(name))),
        ]
        if description { members.append(("description", .nullable(record.description))) }
        members += [
            ("gender", .nullable(summary.gender?.name)), ("gender_type", .nullable(summary.gender?.type)),
            ("is_starred", .bool(record.isStarred)), ("is_partial", .bool(record.isPartial)),
            ("is_active", .bool(record.isActive)), ("is_dead", .bool(record.isDead)),
            ("is_me", .bool(presentation.meContactID == record.id)),
        ]
        return members
    }

    /// `{group: {"total", "contacts"}}` for Monica's four groups. Monica shows `contacts: null` for
    /// a group the account lacks; a Kith account has all four from its creation (`MonicaDefaults`)
    /// and no route removes one (docs/decisions.md 99).
    private static func relationships(_ details: ContactDetails, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                RelationshipTypeDefaults.groupNames.map { group in
                    let items: [JSONTree] = (details.relationships[group] ?? []).map { entry in
                        [
                            "relationship": ["id": .int(entry.relationship.id), "name": .string(entry.type.name)],
                            "contact": short(entry.other, presentation),
                        ]
                    }
                    return (group, ["total": .int(Int64(items.count)), "contacts": .array(items)])
                }))
    }

    private static func avatar(_ record: ContactRecord) -> JSONTree {
        // Monica answers "" until its avatar job has drawn the default picture; Kith draws none.
        ["url": "", "source": "default", "default_avatar_color": .string(record.avatarColor)]
    }

    /// The first letter or digit of each word, accents dropped ("Élodie Ü" -> "EU").
    static func initials(_ name: String) -> String {
        // Most names are ASCII: their initials are read from the bytes, without Characters.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var initials: [UInt8] = []
            var atWordStart = true
            for byte in name.utf8 {
                let isSpace = byte == 0x20 || (0x09...0x0D).contains(byte)
                if atWordStart, !isSpace, (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte & 0xDF) {
                    initials.append(byte)
                }
                atWordStart = isSpace
            }
            return String(decoding: initials, as: UTF8.self)
        }
        let ascii = name.folding(options: .diacriticInsensitive, locale: nil)
        var result = ""
        var atWordStart = true
        for character in ascii {
            if character.isWhitespace {
                atWordStart = true
                continue
            }
            if atWordStart, character.isASCII, character.isLetter || character.isNumber { result.append(character) }
            atWordStart = false
        }
        return result
    }

    /// `{"is_age_based","is_year_unknown","date"}`, all null when the contact has no such date.
    static func specialDate(_ date: ContactRecord.SpecialDate) -> JSONTree {
        guard let day = date.day else { return ["is_age_based": nil, "is_year_unknown": nil, "date": nil] }
        return [
            "is_age_based": .bool(date.isAgeBased), "is_year_unknown": .bool(date.isYearUnknown),
            "date": .string(day.midnightTimestamp),
        ]
    }

    /// Monica writes these two fields straight from Carbon, with microseconds.
    static func carbon(_ millis: Int64) -> JSONTree {
        .string(MonicaTimestamp.format(millis: millis).replacingOccurrences(of: "Z", with: ".000000Z"))
    }

    /// Monica's public contact key is `h:` and 18 Hashids characters; Kith derives as many
    /// characters from the id, so each contact keeps one stable key.
    static func hashID(_ id: Int64) -> String {
        let digest = SHA256.hash(data: Array("kith-contact-\(id)".utf8))
        return "h:" + String(decoding: digest.prefix(18).map { hashAlphabet[Int($0) % hashAlphabet.count] }, as: UTF8.self)
    }

    private static let hashAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
}
