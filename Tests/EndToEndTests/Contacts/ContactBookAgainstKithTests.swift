import Foundation
import KithCore
import KithKit
import KithServer
import KithTestSupport
import Testing

/// KithKit's Monica client and ContactBook against Kith's own `/api`, over real HTTP on loopback,
/// on SQLite and PostgreSQL: every resource the client writes round-trips.
@Suite("ContactBook against Kith's /api")
struct ContactBookAgainstKithTests {
    /// A signed-up user's Monica client on `server`, with a personal access token.
    static func monica(on server: LiveServer) async throws -> MonicaClient {
        let kith = server.client()
        try await kith.signUp(email: uniqueEmail("contacts"), password: "contacts password 1")
        let token = try #require(try await kith.createPersonalToken(name: "Contacts app").token)
        return MonicaClient(
            server: try MonicaServerAddress(server.url), token: token, transport: URLSessionTransport(timeout: 30))
    }

    static func unlimited(_ config: inout ServerConfig) { config.monica.rateLimitPerMinute = 100_000 }

    @Test(arguments: Engine.available)
    func everyWritableResourceRoundTrips(engine: Engine) async throws {
        try await LiveServer.run(engine, configure: Self.unlimited) { server in
            let monica = try await Self.monica(on: server)
            let ada = try await monica.createContact(
                MonicaContactInput(
                    firstName: "Ada", lastName: "Lovelace",
                    nickname: "Enchantress", birthdate: MonicaDay(year: 1815, month: 12, day: 10)))
            let byron = try await monica.createContact(MonicaContactInput(firstName: "Byron"))
            #expect(ada.information?.dates?.birthdate?.date == MonicaDay(year: 1815, month: 12, day: 10))
            let renamed = try await monica.updateContact(
                byron.id, MonicaContactInput(firstName: "George", lastName: "Byron"))
            #expect(renamed.displayName == "George Byron")

            let address = try await monica.createAddress(
                MonicaAddressInput(
                    contactID: ada.id,
                    PostalAddress(
                        label: "Home", street: "12 St James's Square", city: "London", postalCode: "SW1Y 4JH",
                        countryCode: "GB")))
            #expect(address.country?.name == "United Kingdom" && address.postal.lines[2] == "SW1Y 4JH")
            let moved = try await monica.updateAddress(
                address.id,
                MonicaAddressInput(
                    contactID: ada.id, PostalAddress(label: "Home", city: "Marylebone", countryCode: "GB")))
            #expect(moved.street == nil && moved.city == "Marylebone")
            let addresses = try await monica.addresses(of: ada.id)
            #expect(addresses.map(\.id) == [address.id])

            let note = try await monica.notes.create(
                MonicaNoteInput(contactID: ada.id, body: "Wrote the first program."))
            #expect(
                try await monica.notes.update(
                    note.id, MonicaNoteInput(contactID: ada.id, body: note.body, isFavorited: true)
                ).isFavorited)
            let task = try await monica.tasks.create(MonicaTaskInput(contactID: ada.id, title: "Read the Notes"))
            #expect(
                try await monica.tasks.update(
                    task.id, MonicaTaskInput(contactID: ada.id, title: task.title, completed: true)
                ).completed)
            let gift = try await monica.gifts.create(
                MonicaGiftInput(contactID: ada.id, name: "Difference engine", amount: 12.5))
            #expect(gift.status == "idea")
            #expect(
                try await monica.gifts.update(
                    gift.id, MonicaGiftInput(contactID: ada.id, name: gift.name, status: "offered")
                ).status == "offered")
            let reminder = try await monica.reminders.create(
                MonicaReminderInput(
                    contactID: ada.id, title: "Birthday",
                    initialDate: MonicaDay("2026-12-10")!, frequencyType: "year"))
            #expect(reminder.frequencyText == "Every year")
            let tagged = try await monica.setTags(["mathematics", "poetry"], on: ada.id)
            #expect(Set(tagged.tags.map(\.name)) == ["mathematics", "poetry"])
            let poetry = try #require(tagged.tags.first { $0.name == "poetry" })
            #expect(try await monica.unsetTags([poetry.id], on: ada.id).tags.map(\.name) == ["mathematics"])
            #expect(try await monica.renameTag(poetry.id, to: "verse").name == "verse")

            let types = try await monica.relationshipTypes()
            let child = try #require(types.first { $0.name == "child" })
            let relationship = try await monica.createRelationship(
                MonicaRelationshipInput(contactIs: byron.id, ofContact: ada.id, typeID: child.id))
            #expect(relationship.contactIs.id == byron.id)
            let relationships = try await monica.relationships(of: ada.id)
            #expect(relationships.count == 1)
            let genders = try await monica.genders()
            let fieldTypes = try await monica.contactFieldTypes()
            let activityTypes = try await monica.activityTypes()
            let groups = try await monica.relationshipTypeGroups()
            #expect(genders.map(\.name).contains("Woman") && fieldTypes.contains { $0.type == "email" })
            #expect(!activityTypes.isEmpty && groups.map(\.name).contains("family"))

            let book = try await ContactBook(client: monica, cacheURL: nil)
            let details = try await book.details(of: ada.id)
            #expect(details.notes.first?.isFavorited == true)
            #expect(details.tasks.first?.completed == true)
            #expect(details.gifts.map(\.name) == ["Difference engine"])
            #expect(details.reminders.map(\.title) == ["Birthday"])
            #expect(details.related.first?.contact.id == byron.id)
            #expect(details.addresses.map(\.city) == ["Marylebone"])

            try await monica.deleteRelationship(relationship.id)
            try await monica.notes.delete(note.id)
            try await monica.tasks.delete(task.id)
            try await monica.gifts.delete(gift.id)
            try await monica.reminders.delete(reminder.id)
            try await monica.deleteTag(poetry.id)
            try await monica.deleteAddress(address.id)
            let emptied = try await book.details(of: ada.id)
            #expect(
                emptied.notes.isEmpty && emptied.tasks.isEmpty && emptied.gifts.isEmpty && emptied.reminders.isEmpty)
            #expect(emptied.relationships.isEmpty && emptied.addresses.isEmpty)
            try await monica.deleteContact(byron.id)
            await #expect(throws: MonicaClientError.notFound) { _ = try await book.details(of: byron.id) }
        }
    }

    /// `ContactBook.merge`: one change on the server, then the cache forgets the merged contact
    /// and holds the kept one's page as it is now.
    @Test(arguments: Engine.available)
    func mergeKeepsOneContactWithEverythingOnBoth(engine: Engine) async throws {
        try await LiveServer.run(engine, configure: Self.unlimited) { server in
            let monica = try await Self.monica(on: server)
            let ada = try await monica.createContact(MonicaContactInput(firstName: "Ada", lastName: "Lovelace"))
            let twin = try await monica.createContact(
                MonicaContactInput(
                    firstName: "Ada", nickname: "Enchantress", birthdate: MonicaDay(year: 1815, month: 12, day: 10)))
            _ = try await monica.notes.create(MonicaNoteInput(contactID: twin.id, body: "Wrote the first program."))
            let book = try await ContactBook(client: monica, cacheURL: nil)
            _ = try await book.sync()
            #expect(try await book.cachedContacts().total == 2)

            let merged = try await book.merge(twin.id, into: ada.id)
            #expect(merged.contact.id == ada.id && merged.contact.nickname == "Enchantress")
            #expect(merged.contact.information?.dates?.birthdate?.date == MonicaDay(year: 1815, month: 12, day: 10))
            #expect(merged.notes.map(\.body) == ["Wrote the first program."])
            #expect(try await book.cachedContacts().contacts.map(\.id) == [ada.id], "the merged one left the cache")
            #expect(await book.selectedContact?.contact.nickname == "Enchantress")

            do {
                _ = try await book.merge(ada.id, into: ada.id)
                Issue.record("a contact merged with itself")
            } catch MonicaClientError.rejected(_, let messages) {
                #expect(messages == ["A contact cannot be merged with itself."])
            }
            // The merged contact is gone: its id is one no account has, as `/api` says of any body id.
            await #expect(
                throws: MonicaClientError.rejected(status: 422, messages: ["The selected contact id is invalid."])
            ) { _ = try await book.merge(twin.id, into: ada.id) }
            await #expect(throws: MonicaClientError.notFound) { _ = try await book.merge(ada.id, into: twin.id) }
        }
    }

    @Test(arguments: Engine.available)
    func syncThenSearchTheCacheAsDomainsSays(engine: Engine) async throws {
        try await LiveServer.run(engine, configure: Self.unlimited) { server in
            let monica = try await Self.monica(on: server)
            for (first, last) in [
                ("Jonathan", "Swift"), ("Mary", "Poppins"), ("John", "Doe"), ("Jon", "Snow"), ("Johnny", "Cash"),
            ] {
                _ = try await monica.createContact(MonicaContactInput(firstName: first, lastName: last))
            }
            let book = try await ContactBook(client: monica, cacheURL: nil)
            #expect(try await book.search("John").isEmpty, "nothing before the first sync")
            let summary = try await book.sync()
            #expect(summary.contacts == 5 && summary.countries == 249)
            let john = try await book.search("John").map(\.displayName)
            // Exact, then prefix, then the two within one edit (in Monica's order among themselves).
            #expect(john.prefix(2) == ["John Doe", "Johnny Cash"])
            #expect(Set(john.dropFirst(2)) == ["Jon Snow", "Jonathan Swift"] && john.count == 4)
            let mary = try await book.search("popins").map(\.displayName)
            #expect(mary == ["Mary Poppins"])
            let nobody = try await book.search("zzz")
            #expect(nobody.isEmpty)
            let page = try await book.contacts(page: 1, perPage: 2)
            #expect(page.contacts.map(\.displayName) == ["Jonathan Swift", "Mary Poppins"] && page.lastPage == 3)
            #expect(!page.isFromCache)
            try await book.clearCache()
            let cleared = try await book.cachedContacts()
            #expect(cleared.total == 0)
        }
    }
}
