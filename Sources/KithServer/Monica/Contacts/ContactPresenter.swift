import Crypto
import Foundation
import KithCore
import SQLKit

/// Writes contacts as Monica does: the short form nested in every other object, and the full
/// form of the contacts endpoints (reduced for partial contacts).
struct ContactPresenter: Sendable {
    let scope: MonicaScope
    let genders: [Int64: MonicaRow]

    static func load(_ sql: any SQLDatabase, _ scope: MonicaScope) async throws -> ContactPresenter {
        ContactPresenter(scope: scope, genders: try await GenderTable.all(sql, account: scope.accountID))
    }

    func short(_ row: MonicaRow) -> JSONTree {
        let partial = row.bool("is_partial")
        var object = JSONObject(head(row))
        object["information"] = [
            "birthdate": Self.specialDate(row, "birthdate"), "deceased_date": Self.specialDate(row, "deceased_date"),
            "avatar": avatar(row),
        ]
        if !partial { object["url"] = .string(scope.url("contacts/\(row.id)")) }
        object["account"] = ["id": .int(scope.accountID)]
        return .object(object)
    }

    func full(_ row: MonicaRow, _ nested: ContactNesting) -> JSONTree {
        let partial = row.bool("is_partial")
        var object = JSONObject(head(row, description: true))
        if !partial {
            object["last_called"] = .nullable(row.int("last_called").map(Self.carbon))
            object["last_activity_together"] = .nullable(nested.lastActivity[row.id].map(Self.carbon))
            object["stay_in_touch_frequency"] = .nullable(row.int("stay_in_touch_frequency"))
            object["stay_in_touch_trigger_date"] = .nullable(
                MonicaTimestamp.format(millis: row.int("stay_in_touch_trigger_date")))
        }
        var information = JSONObject()
        if !partial { information["relationships"] = nested.relationships(of: row.id) }
        information["dates"] = [
            "birthdate": Self.specialDate(row, "birthdate"), "deceased_date": Self.specialDate(row, "deceased_date"),
        ]
        if !partial {
            information["career"] = ["job": .nullable(row.text("job")), "company": .nullable(row.text("company"))]
            information["avatar"] = avatar(row)
            information["food_preferences"] = .nullable(row.text("food_preferences"))
            information["how_you_met"] = [
                "general_information": .nullable(row.text("first_met_general_information")),
                "first_met_date": Self.specialDate(row, "first_met_date"),
                "first_met_through_contact": .nullable(
                    row.int("first_met_through_contact_id").flatMap { nested.shorts[$0] }),
            ]
        }
        object["information"] = .object(information)
        if !partial {
            object["addresses"] = .array(nested.addresses[row.id] ?? [])
            object["tags"] = .array(nested.tags[row.id] ?? [])
            object["statistics"] = nested.statistics(of: row.id)
            if nested.withContactFields {
                object["contactFields"] = .array(nested.contactFields[row.id] ?? [])
                object["notes"] = .array(nested.notes[row.id] ?? [])
            }
            object["url"] = .string(scope.url("contacts/\(row.id)"))
        }
        for (key, value) in row.stamps(scope) { object[key] = value }
        return .object(object)
    }

    private func head(_ row: MonicaRow, description: Bool = false) -> [(String, JSONTree)] {
        let gender = row.int("gender_id").flatMap { genders[$0] }
        let name = Self.completeName(row)
        var members: [(String, JSONTree)] = [
            ("id", .int(row.id)), ("uuid", .nullable(row.text("uuid"))), ("object", "contact"),
            ("hash_id", .string(row.bool("is_partial") ? "" : Self.hashID(row.id))),
            ("first_name", .nullable(row.text("first_name"))), ("last_name", .nullable(row.text("last_name"))),
            ("nickname", .nullable(row.text("nickname"))), ("complete_name", .string(name)),
            ("initials", .string(Self.initials(name))),
        ]
        if description { members.append(("description", .nullable(row.text("description")))) }
        members += [
            ("gender", .nullable(gender?.text("name"))), ("gender_type", .nullable(gender?.text("type"))),
            ("is_starred", .bool(row.bool("is_starred"))), ("is_partial", .bool(row.bool("is_partial"))),
            ("is_active", .bool(row.bool("is_active"))), ("is_dead", .bool(row.bool("is_dead"))),
            ("is_me", .bool(scope.account.meContactID == row.id)),
        ]
        return members
    }

    private func avatar(_ row: MonicaRow) -> JSONTree {
        // Monica answers "" until its avatar job has drawn the default picture; Kith draws none.
        ["url": "", "source": "default", "default_avatar_color": .nullable(row.text("avatar_color"))]
    }

    /// `first [middle] [last]`, with Monica's coffin for the dead.
    static func completeName(_ row: MonicaRow) -> String {
        let name = [row.text("first_name"), row.text("middle_name"), row.text("last_name")].compactMap { $0 }
            .joined(separator: " ")
        return row.bool("is_dead") ? name + " ⚰" : name
    }

    /// The first letter or digit of each word, accents dropped ("Élodie Ü" -> "EU").
    static func initials(_ name: String) -> String {
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
    static func specialDate(_ row: MonicaRow, _ prefix: String) -> JSONTree {
        guard let text = row.text(prefix), let date = MonicaDate(ymd: text) else {
            return ["is_age_based": nil, "is_year_unknown": nil, "date": nil]
        }
        return [
            "is_age_based": .bool(row.bool("\(prefix)_is_age_based")),
            "is_year_unknown": .bool(row.bool("\(prefix)_is_year_unknown")),
            "date": .string(date.midnightTimestamp),
        ]
    }

    /// Monica writes these two fields straight from Carbon, with microseconds.
    static func carbon(_ millis: Int64) -> JSONTree {
        .string(MonicaTimestamp.format(millis: millis).replacingOccurrences(of: "Z", with: ".000000Z"))
    }

    /// Monica's public contact key is `h:` and 18 Hashids characters; Kith derives as many
    /// characters from the id, so each contact keeps one stable key.
    static func hashID(_ id: Int64) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let digest = SHA256.hash(data: Data("kith-contact-\(id)".utf8))
        return "h:" + String(digest.prefix(18).map { alphabet[Int($0) % alphabet.count] })
    }
}
