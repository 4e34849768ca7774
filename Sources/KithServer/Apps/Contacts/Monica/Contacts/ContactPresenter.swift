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
            "avatar": avatar(record, presentation),
        ]
        if !record.isPartial { object["url"] = .string(presentation.url("contacts/\(record.id)")) }
        object["account"] = ["id": .int(presentation.accountID)]
        return .object(object)
    }

    /// The full form of the contacts endpoints, written straight to bytes (`FullContact`).
    static func full(_ details: ContactDetails, _ presentation: MonicaPresentation) -> FullContact {
        FullContact(details: details, presentation: presentation)
    }

    static func head(_ summary: ContactSummary, _ presentation: MonicaPresentation, description: Bool = false)
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

    /// A photo avatar is the photo's file (`GET /api/photos/{id}/file`, which wants the same
    /// credentials as every `/api` call); Gravatar's is its public address. The default is "", as
    /// Monica answers until its avatar job has drawn the initials: clients draw them on
    /// `default_avatar_color`.
    static func avatar(_ record: ContactRecord, _ presentation: MonicaPresentation) -> JSONTree {
        let (source, url): (String, String) =
            switch (record.avatarSource, record.avatarPhotoID, record.avatarGravatarURL) {
            case ("photo", let photo?, _): ("photo", presentation.url("photos/\(photo)/file"))
            case ("gravatar", _, let gravatar?): ("gravatar", gravatar)
            default: ("default", "")
            }
        return ["url": .string(url), "source": .string(source), "default_avatar_color": .string(record.avatarColor)]
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
        return "h:"
            + String(decoding: digest.prefix(18).map { hashAlphabet[Int($0) % hashAlphabet.count] }, as: UTF8.self)
    }

    private static let hashAlphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
}
