import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

/// Monica's models declare their fields with `@Lenient`, `@Required`, `@Defaulted` and `@Nested`:
/// what real servers send reads, and what this SDK's cache wrote before the models were declared
/// so (Tests/fixtures/contact-cache-v1, written by the hand-written decoders) still reads the same.
@Suite("Lenient decoding of Monica's models")
struct LenientDecodingTests {
    static func monica(_ name: String) throws -> Data {
        try Data(contentsOf: RepositoryPaths.root.appendingPathComponent("Tests/fixtures/monica/\(name).json"))
    }

    static func cacheV1(_ name: String) throws -> Data {
        try Data(
            contentsOf: RepositoryPaths.root.appendingPathComponent("Tests/fixtures/contact-cache-v1/\(name).json"))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    // MARK: A cache written by the earlier decoders

    @Test func aContactCachedByTheEarlierCodeReadsAsMonicasAnswerDoes() throws {
        let cached = try CacheCoding.decode(MonicaContact.self, try Self.cacheV1("contact"))
        let fresh = try JSONDecoder().decode(MonicaEnvelope<MonicaContact>.self, from: try Self.monica("contact-42"))
            .data
        #expect(cached == fresh)
        #expect(cached.displayName == "John Freaking Doe" && cached.job == "Carpenter" && cached.company == "Acme")
        #expect(cached.lastActivityTogether == Date(timeIntervalSince1970: 1_714_557_600.25))
        #expect(cached.information?.dates?.birthdate?.date == MonicaDay(year: 1980, month: 10, day: 10))
        #expect(cached.information?.relationships["family"]?.contacts.map(\.contact.id) == [43])
        #expect(cached.addresses.first?.country == MonicaCountry(id: "FR", name: "France"))
        #expect(cached.emails == ["john@doe.com"] && cached.phones == ["+44 7700 900123"])
        #expect(cached.contactFields?.map(\.contactID) == [42, 42])
        #expect(cached.tags.map(\.name) == ["friends"] && cached.statistics?.numberOfNotes == 2)

        let list = try CacheCoding.decode([MonicaContact].self, try Self.cacheV1("contacts"))
        let page = try JSONDecoder().decode(MonicaPage<MonicaContact>.self, from: try Self.monica("contacts-page-1"))
        #expect(list == page.items)
        let addresses = try CacheCoding.decode([MonicaAddress].self, try Self.cacheV1("addresses"))
        #expect(
            addresses
                == (try JSONDecoder().decode(MonicaPage<MonicaAddress>.self, from: try Self.monica("addresses-42")))
                .items)
    }

    @Test func aContactPageCachedByTheEarlierCodeReadsWhole() throws {
        let details = try CacheCoding.decode(CachedDetails.self, try Self.cacheV1("details"))
        func page<T: LenientDecodable>(_ type: T.Type, _ name: String) throws -> [T] {
            try JSONDecoder().decode(MonicaPage<T>.self, from: try Self.monica(name)).items
        }
        #expect(details.notes == (try page(MonicaNote.self, "notes-42")))
        #expect(details.tasks == (try page(MonicaTask.self, "tasks-42")))
        #expect(details.activities == (try page(MonicaActivity.self, "activities-42")))
        #expect(details.reminders == (try page(MonicaReminder.self, "reminders-42")))
        #expect(details.relationships == (try page(MonicaRelationship.self, "relationships-42")))
        #expect(details.activities.first?.attendees.map(\.id) == [42, 43])
        #expect(details.hasMoreActivities)
        // The earlier code kept a gift's amount under `amount` only, as Monica shows it.
        let gifts = try page(MonicaGift.self, "gifts-42")
        #expect(details.gifts.map(\.amount) == gifts.map(\.amount) && gifts.first?.amount == "$89.90")
        #expect(details.gifts.map(\.name) == gifts.map(\.name) && details.gifts.map(\.status) == gifts.map(\.status))
        #expect(details.gifts.map(\.contact) == gifts.map(\.contact) && details.gifts.map(\.date) == gifts.map(\.date))
    }

    @Test func savedMonicaCredentialsStillRead() throws {
        let credentials = try JSONDecoder().decode(MonicaCredentials.self, from: try Self.cacheV1("credentials"))
        #expect(credentials.token == "tok" && credentials.server.apiURL.absoluteString == "https://monica.example/api")
        #expect(credentials.user.id == 1 && credentials.user.name == "Peter Pan" && credentials.user.accountID == 1)
        #expect(credentials.user.timezone == "Europe/Paris")
    }

    @Test func whatTheCacheWritesNowReadsBackTheSame() throws {
        let contact = try JSONDecoder().decode(MonicaEnvelope<MonicaContact>.self, from: try Self.monica("contact-42"))
            .data
        #expect(try CacheCoding.decode(MonicaContact.self, try CacheCoding.encode(contact)) == contact)
        let gifts = try JSONDecoder().decode(MonicaPage<MonicaGift>.self, from: try Self.monica("gifts-42")).items
        #expect(try CacheCoding.decode([MonicaGift].self, try CacheCoding.encode(gifts)) == gifts)
        let activities = try JSONDecoder().decode(
            MonicaPage<MonicaActivity>.self, from: try Self.monica("activities-42"))
        #expect(
            try CacheCoding.decode([MonicaActivity].self, try CacheCoding.encode(activities.items)) == activities.items)

        // Unknown values are left out, not written as null; dates are seconds; nested shapes are Monica's.
        let written = try JSONSerialization.jsonObject(with: try CacheCoding.encode(contact)) as? [String: Any]
        #expect(written?["id"] as? Int == 42 && written?["last_called"] as? Double == 1_714_809_965)
        let summary =
            try JSONSerialization.jsonObject(
                with: try CacheCoding.encode(MonicaContactSummary(id: 7, firstName: "Ada"))) as? [String: Any]
        #expect(summary?.keys.contains("uuid") == false && summary?["is_starred"] as? Bool == false)
        let user = try JSONSerialization.jsonObject(
            with: try CacheCoding.encode(try Self.decode(MonicaUser.self, #"{"id":1,"account":{"id":"9"}}"#)))
        #expect((user as? [String: Any])?["account"] as? [String: Int] == ["id": 9])
    }

    // MARK: What real servers send

    @Test func numbersAndBooleansInMonicasOtherSpellings() throws {
        let contact = try Self.decode(
            MonicaContact.self,
            #"{"id":"12","is_starred":1,"is_dead":"1","is_partial":"0","is_me":"yes","statistics":{"number_of_notes":"3","number_of_tasks":2.0}}"#
        )
        #expect(contact.id == 12 && contact.isStarred && contact.isDead && !contact.isPartial && contact.isMe)
        #expect(contact.statistics?.numberOfNotes == 3 && contact.statistics?.numberOfTasks == 2)
        let address = try Self.decode(
            MonicaAddress.self, #"{"id":1,"latitude":"48.85","longitude":2.35,"postal_code":75004,"name":null}"#)
        #expect(address.latitude == 48.85 && address.longitude == 2.35 && address.postalCode == "75004")
        #expect(address.name == nil && address.country == nil && address.contact == nil)
        let gift = try Self.decode(MonicaGift.self, #"{"id":1,"value":12.5,"amount":""}"#)
        #expect(gift.amount == "12.5" && gift.status == "idea" && gift.name == "")
    }

    @Test func timestampsInMonicasFormatsAndAsTheCachesSeconds() throws {
        let expected = Date(timeIntervalSince1970: 1_714_809_965)
        for text in [
            "2024-05-04T08:06:05Z", "2024-05-04T08:06:05.000000Z", "2024-05-04T10:06:05+02:00", "2024-05-04 08:06:05",
        ] {
            let note = try Self.decode(MonicaNote.self, #"{"id":1,"created_at":"\#(text)"}"#)
            #expect(note.createdAt == expected, "\(text)")
        }
        #expect(try Self.decode(MonicaNote.self, #"{"id":1,"created_at":1714809965}"#).createdAt == expected)
        #expect(
            try Self.decode(MonicaNote.self, #"{"id":1,"created_at":"2024-05-04"}"#).createdAt?.timeIntervalSince1970
                == 1_714_780_800)
        #expect(try Self.decode(MonicaNote.self, #"{"id":1,"created_at":"soon"}"#).createdAt == nil)
        let day = try Self.decode(MonicaActivity.self, #"{"id":1,"happened_at":"2024-04-01T00:00:00Z"}"#).happenedAt
        #expect(day == MonicaDay(year: 2024, month: 4, day: 1))
    }

    @Test func wrongShapesReadAsNothingAndListsKeepWhatReads() throws {
        let contact = try Self.decode(
            MonicaContact.self,
            #"""
            {"id":1,"information":"hidden","statistics":[],"tags":[{"id":1,"name":"a"},{"name":"no id"},7,{"id":"3"}],
             "addresses":{"not":"a list"},"contactFields":null}
            """#)
        #expect(contact.information == nil && contact.statistics == nil)
        #expect(contact.tags.map(\.id) == [1, 3] && contact.tags.map(\.name) == ["a", ""])
        #expect(contact.addresses.isEmpty && contact.contactFields == nil)
        let withFields = try Self.decode(
            MonicaContact.self, #"{"id":1,"contactFields":[{"id":1,"data":"ada@example.com","contact":{"id":"4"}}]}"#)
        #expect(withFields.contactFields?.first?.content == "ada@example.com")
        #expect(withFields.contactFields?.first?.contactID == 4)
        let activity = try Self.decode(
            MonicaActivity.self, #"{"id":1,"attendees":{"total":1,"contacts":[{"id":2},{}]},"activity_type":3}"#)
        #expect(activity.attendees.map(\.id) == [2] && activity.activityType == nil && activity.summary == "")
        let reminder = try Self.decode(MonicaReminder.self, #"{"id":1,"frequency_type":null}"#)
        #expect(
            reminder.frequencyType == "one_time" && reminder.frequencyNumber == 1 && reminder.frequencyText == "Once")
    }

    @Test func anObjectWithoutItsIDFailsAndAListLeavesItOut() throws {
        #expect(throws: DecodingError.self) { try Self.decode(MonicaNote.self, #"{"body":"no id"}"#) }
        #expect(throws: DecodingError.self) { try Self.decode(MonicaNote.self, #"{"id":"twelve"}"#) }
        #expect(throws: DecodingError.self) {
            try Self.decode(MonicaRelationship.self, #"{"id":1,"of_contact":{"id":2}}"#)
        }
        let page = try Self.decode(
            MonicaPage<MonicaNote>.self,
            #"{"data":[{"id":1},{"body":"x"},{"id":3}],"meta":{"current_page":"2","last_page":"1"}}"#)
        #expect(page.items.map(\.id) == [1, 3] && page.currentPage == 2 && page.lastPage == 2 && !page.hasMore)
        #expect(try Self.decode(MonicaPage<MonicaNote>.self, #"{"data":[]}"#).lastPage == 1)
        #expect(throws: DecodingError.self) { try Self.decode(MonicaPage<MonicaNote>.self, #"{"data":{"id":1}}"#) }
    }

    @Test func aCountryIsItsCodeFromIsoOrID() throws {
        let old = try Self.decode(MonicaCountry.self, #"{"id":75,"iso":"fr","name":"France"}"#)
        #expect(old.id == "FR" && old == MonicaCountry(id: "FR", name: "France"))
        #expect(try Self.decode(MonicaCountry.self, #"{"id":"de"}"#) == MonicaCountry(id: "DE", name: "Germany"))
        let address = try Self.decode(MonicaAddress.self, #"{"id":1,"country":{"name":"Nowhere"}}"#)
        #expect(address.country == nil, "a country without a code is none")
        let list = try Self.decode(MonicaCountryList.self, #"{"data":[{"iso":"JP"},{"name":"Nowhere"}]}"#)
        #expect(list.countries == [MonicaCountry(id: "JP", name: "Japan")])
    }
}
