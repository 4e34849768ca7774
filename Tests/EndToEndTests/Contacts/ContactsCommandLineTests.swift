import Foundation
import Hummingbird
import HummingbirdTesting
import KithCore
import KithKit
import KithServer
import KithTestSupport
import NIOCore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kith contacts` as real processes: against Kith's own `/api` (the profile's session), against
/// recorded real-Monica answers (`--monica-url` with a token), and offline then back online.
@Suite("kith contacts (command line)")
struct ContactsCommandLineTests {
    /// One profile of `kith` under `home`, optionally with `--server` and extra environment.
    struct Profile {
        let name: String
        let home: URL
        var server: URL?
        var environment: [String: String] = [:]
        /// Seconds a run may take before it is killed (an import of a whole account runs longer).
        var runLimit: TimeInterval = 30

        /// Runs `kith arguments --profile … [--server …] [-- positional…]`.
        func kith(_ arguments: [String], positional: [String] = [], stdin: String? = nil) async throws -> KithRun {
            var all = arguments + ["--profile", name]
            if let server { all += ["--server", server.absoluteString] }
            if !positional.isEmpty { all += ["--"] + positional }
            var environment = self.environment
            environment["KITH_HOME"] = home.path
            return try await runKith(all, environment: environment, stdin: stdin, timeout: runLimit)
        }

        /// Runs with `--json`, requires success, and parses stdout.
        func json(_ arguments: [String], positional: [String] = [], stdin: String? = nil) async throws -> Any {
            let run = try await kith(arguments + ["--json"], positional: positional, stdin: stdin)
            try #require(run.status == 0, "\(arguments): \(run)")
            return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        }

        func object(_ arguments: [String], positional: [String] = [], stdin: String? = nil) async throws -> [String:
            Any]
        {
            try #require(
                try await json(arguments, positional: positional, stdin: stdin) as? [String: Any], "\(arguments)")
        }

        var directory: URL { home.appendingPathComponent("profiles/\(name)") }
    }

    /// Signs `profile` up on its server and returns a Monica client of the same account, to fill it.
    static func signUp(_ profile: Profile) async throws -> MonicaClient {
        let email = uniqueEmail("contacts-cli")
        let signup = try await profile.kith(
            ["account", "signup", email, "--password-stdin"], stdin: "contacts cli password\n")
        try #require(signup.status == 0, "\(signup)")
        let token = try #require(
            try await profile.object(["account", "tokens", "create", "seeding"])["token"] as? String)
        let server = try #require(profile.server)
        return MonicaClient(
            server: try MonicaServerAddress(server), token: token, transport: URLSessionTransport(timeout: 30))
    }

    static func contacts(_ object: [String: Any]) throws -> [[String: Any]] {
        try #require(object["contacts"] as? [[String: Any]], "\(object)")
    }

    static func names(_ object: [String: Any]) throws -> [String] {
        try contacts(object).compactMap { $0["name"] as? String }
    }

    @Test("every command against the Kith server the profile is signed in to", arguments: Engine.available)
    func everyCommandAgainstKith(engine: Engine) async throws {
        try await LiveServer.run(engine, configure: ContactBookAgainstKithTests.unlimited) { server in
            let home = try makeTemporaryDirectory("kith-e2e-contacts")
            defer { try? FileManager.default.removeItem(at: home) }
            let laptop = Profile(name: "laptop", home: home, server: server.url)
            let monica = try await Self.signUp(laptop)
            var ids: [String: Int] = [:]
            for (first, last) in [
                ("Jonathan", "Swift"), ("Mary", "Poppins"), ("John", "Doe"), ("Jon", "Snow"), ("Johnny", "Cash"),
            ] {
                ids[first] = try await monica.createContact(
                    MonicaContactInput(firstName: first, lastName: last, nickname: first == "John" ? "JD" : nil)
                ).id
            }
            let john = try #require(ids["John"])
            let jonathan = try #require(ids["Jonathan"])
            _ = try await monica.notes.create(
                MonicaNoteInput(contactID: john, body: "Lent me a drill.", isFavorited: true))
            let done = try await monica.tasks.create(MonicaTaskInput(contactID: john, title: "Return the drill"))
            _ = try await monica.tasks.update(
                done.id, MonicaTaskInput(contactID: john, title: done.title, completed: true))
            _ = try await monica.tasks.create(MonicaTaskInput(contactID: john, title: "Send the photos"))
            _ = try await monica.gifts.create(MonicaGiftInput(contactID: john, name: "A new drill", amount: 89.9))
            _ = try await monica.reminders.create(
                MonicaReminderInput(
                    contactID: john, title: "Birthday", initialDate: MonicaDay("2026-10-10")!, frequencyType: "year"))
            _ = try await monica.setTags(["neighbours"], on: john)
            let child = try #require(try await monica.relationshipTypes().first { $0.name == "child" })
            _ = try await monica.createRelationship(
                MonicaRelationshipInput(contactIs: jonathan, ofContact: john, typeID: child.id))

            // The list, in the server's order, as JSON and as text.
            let page = try await laptop.object(["contacts", "list"])
            #expect(try Self.names(page) == ["Jonathan Swift", "Mary Poppins", "John Doe", "Jon Snow", "Johnny Cash"])
            #expect(page["total"] as? Int == 5 && page["page"] as? Int == 1 && page["lastPage"] as? Int == 1)
            #expect(page["fromCache"] as? Bool == false && page["perPage"] as? Int == 50)
            let listed = try await laptop.kith(["contacts", "list"])
            #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed)")
            #expect(listed.stdout.hasPrefix("Contacts 1-5 of 5 (page 1 of 1)\n"), "\(listed)")
            #expect(listed.stdout.contains("\(john)   John Doe (JD)\n"), "\(listed)")
            let empty = try await laptop.kith(["contacts", "list", "--page", "2"])
            #expect(empty.stdout == "No contacts on page 2: there are 5 contacts, 50 a page.\n", "\(empty)")

            // Search syncs a cache never filled, then ranks: the exact word, then near spellings.
            let found = try await laptop.object(["contacts", "search", "Jon"])
            let names = try Self.names(found)
            #expect(names.first == "Jon Snow", "\(names)")
            #expect(
                Set(names).isSuperset(of: ["John Doe", "Jonathan Swift"]) && !names.contains("Mary Poppins"), "\(names)"
            )
            #expect(found["cachedAt"] is String)
            let nobody = try await laptop.kith(["contacts", "search", "zzzz"])
            #expect(nobody.stdout == "No contacts found.\n", "\(nobody)")

            // A contact's whole page.
            let details = try await laptop.object(["contacts", "show", String(john)])
            let contact = try #require(details["contact"] as? [String: Any])
            #expect(contact["name"] as? String == "John Doe" && contact["nickname"] as? String == "JD")
            #expect(contact["tags"] as? [String] == ["neighbours"])
            let related = try #require(details["relationships"] as? [[String: Any]])
            #expect((related.first?["contact"] as? [String: Any])?["id"] as? Int == jonathan, "\(related)")
            let tasks = try #require(details["tasks"] as? [[String: Any]])
            #expect(
                tasks.map { $0["title"] as? String } == ["Send the photos", "Return the drill"], "open before done")
            #expect((details["notes"] as? [[String: Any]])?.first?["isFavorited"] as? Bool == true)
            #expect((details["gifts"] as? [[String: Any]])?.first?["status"] as? String == "idea")
            #expect((details["reminders"] as? [[String: Any]])?.first?["frequency"] as? String == "Every year")
            #expect(details["fromCache"] as? Bool == false && details["pendingAddressEdits"] as? Int == 0)
            let shown = try await laptop.kith(["contacts", "show", String(john)])
            #expect(shown.status == 0, "\(shown)")
            for line in [
                "John Doe (#\(john))", "Nickname: JD", "Tags: neighbours", "Relationships", "(#\(jonathan))",
                "  [ ] Send the photos",
                "  [x] Return the drill (done ", "  ★ Lent me a drill. (", "  A new drill (idea, ",
                "  Birthday: every year from 2026-10-10",
            ] {
                #expect(shown.stdout.contains(line), "\(line)\n\(shown)")
            }
            let unknown = try await laptop.kith(["contacts", "show", "999999"])
            #expect(unknown.status == 1 && unknown.stderr == "error: No contact with id 999999.\n", "\(unknown)")

            // Addresses: add, list, directions, edit (every field replaced), delete.
            let added = try await laptop.object([
                "contacts", "address", "add", String(john), "--label", "Home", "--street", "12 St James's Square",
                "--city", "London",
                "--postal-code", "SW1Y 4JH", "--country", "gb",
            ])
            let addressID = try #require(added["id"] as? Int)
            #expect(addressID > 0 && added["pending"] as? Bool == false && added["countryCode"] as? String == "GB")
            #expect(
                added["lines"] as? [String] == ["12 St James's Square", "London", "SW1Y 4JH", "United Kingdom"],
                "\(added)")
            let listedAddresses = try await laptop.object(["contacts", "addresses", String(john)])
            #expect((listedAddresses["addresses"] as? [[String: Any]])?.map { $0["id"] as? Int } == [addressID])
            let addressesText = try await laptop.kith(["contacts", "addresses", String(john)])
            #expect(
                addressesText.stdout
                    == "#\(addressID) Home\n  12 St James's Square\n  London\n  SW1Y 4JH\n  United Kingdom\n",
                "\(addressesText)")
            let nowhere = try await laptop.kith(["contacts", "address", "directions", String(addressID)])
            #expect(nowhere.status == 1, "\(nowhere)")
            #expect(nowhere.stderr == "error: \(GeocodingError.notConfigured.userMessage)\n", "\(nowhere)")

            let edited = try await laptop.object([
                "contacts", "address", "edit", String(addressID), "--label", "Home", "--city", "Marylebone",
                "--country", "GB",
                "--latitude", "51.5226", "--longitude", "-0.1571",
            ])
            #expect(
                edited["street"] == nil && edited["city"] as? String == "Marylebone"
                    && edited["longitude"] as? Double == -0.1571)
            let directions = try await laptop.object(["contacts", "address", "directions", String(addressID)])
            #expect(directions["geocoded"] as? Bool == false && directions["label"] as? String == "John Doe")
            let apple = try #require(directions["appleMaps"] as? String)
            #expect(
                apple.hasPrefix("https://maps.apple.com/?daddr=51.5226") && apple.contains("q=John%20Doe"), "\(apple)")
            #expect((directions["openStreetMap"] as? String)?.contains("to=John%20Doe") == true, "\(directions)")
            let directionsText = try await laptop.kith(["contacts", "address", "directions", String(addressID)])
            #expect(
                directionsText.stdout.hasPrefix(
                    "Directions to John Doe: Marylebone, United Kingdom\nApple Maps:    https://"), "\(directionsText)")

            let unconfirmed = try await laptop.kith(["contacts", "address", "delete", String(addressID)])
            #expect(unconfirmed.status != 0 && unconfirmed.stderr.contains("--yes"), "\(unconfirmed)")
            let deleted = try await laptop.object(["contacts", "address", "delete", String(addressID), "--yes"])
            #expect(deleted["deleted"] as? Int == addressID && deleted["pending"] as? Bool == false)
            #expect(try await monica.addresses(of: john).isEmpty)
            let none = try await laptop.kith(["contacts", "addresses", String(john)])
            #expect(none.stdout.hasPrefix("John Doe has no addresses."), "\(none)")
            let refused = try await laptop.kith(["contacts", "address", "add", String(john), "--country", "XX"])
            #expect(
                refused.status == 1
                    && refused.stderr == "error: XX is not a country code. Use an ISO 3166 code such as FR or US.\n",
                "\(refused)")

            // Countries with their forms' labels; sync; status.
            let countries = try #require(try await laptop.json(["contacts", "countries"]) as? [[String: Any]])
            #expect(countries.count == 249)
            let us = try #require(countries.first { $0["code"] as? String == "US" })
            #expect(
                us["name"] as? String == "United States" && us["postalCodeLabel"] as? String == "ZIP Code"
                    && us["regionLabel"] as? String == "State")
            let kingdom = try await laptop.kith(["contacts", "countries", "united king"])
            #expect(kingdom.stdout == "GB  United Kingdom  Postcode  County\n", "\(kingdom)")
            let synced = try await laptop.object(["contacts", "sync"])
            #expect(
                synced["contacts"] as? Int == 5 && synced["countries"] as? Int == 249
                    && synced["addressEditsSent"] as? Int == 0)
            let syncText = try await laptop.kith(["contacts", "sync"])
            #expect(syncText.stdout == "Synced 5 contacts and 249 countries.\n", "\(syncText)")
            let status = try await laptop.object(["contacts", "status"])
            #expect(
                status["source"] as? String == "kith" && status["cachedContacts"] as? Int == 5
                    && status["pendingAddressEdits"] as? Int == 0)
            #expect(status["server"] as? String == server.url.appendingPathComponent("api").absoluteString)
        }
    }

    @Test("--monica-url with KITH_MONICA_TOKEN against recorded Monica answers; a bad token; offline from the cache")
    func againstRecordedMonica() async throws {
        let home = try makeTemporaryDirectory("kith-e2e-contacts")
        defer { try? FileManager.default.removeItem(at: home) }
        let stub = MonicaStub()
        let phone = Profile(name: "phone", home: home)
        try await stub.run { url in
            let withToken = Profile(name: "phone", home: home, environment: ["KITH_MONICA_TOKEN": MonicaStub.token])
            let page = try await withToken.object(["contacts", "list", "--monica-url", url.absoluteString])
            #expect(try Self.contacts(page).map { $0["id"] as? Int } == [42, 43])
            #expect(try Self.names(page) == ["John Freaking Doe", "Jonathan Swift"])
            #expect(page["total"] as? Int == 3 && page["lastPage"] as? Int == 2)
            let first = try #require(try Self.contacts(page).first)
            #expect(
                first["emails"] as? [String] == ["john@doe.com"] && first["phones"] as? [String] == ["+44 7700 900123"])
            #expect(first["job"] as? String == "Carpenter" && first["company"] as? String == "Acme")
            #expect(first["lastInteraction"] as? String == "2024-05-04T08:06:05.000Z", "\(first)")
            let saved = phone.directory.appendingPathComponent("monica.json")
            let mode = try #require(
                try FileManager.default.attributesOfItem(atPath: saved.path)[.posixPermissions] as? NSNumber)
            #expect(mode.intValue & 0o777 == 0o600)
            // Later commands (`phone`) need neither the address nor the token.

            let wrong = Profile(name: "wrong", home: home, environment: ["KITH_MONICA_TOKEN": "not-the-token"])
            let refused = try await wrong.kith(["contacts", "list", "--monica-url", url.absoluteString])
            #expect(refused.status == 1 && refused.stdout.isEmpty, "\(refused)")
            #expect(refused.stderr == "error: This API token is invalid or expired.\n", "\(refused)")
            let refusedJSON = try await wrong.kith([
                "contacts", "connect", "--monica-url", url.absoluteString, "--json",
            ])
            #expect(
                refusedJSON.status == 1 && refusedJSON.stderr.contains(#""code":"invalid_token""#), "\(refusedJSON)")
            #expect(!FileManager.default.fileExists(atPath: wrong.directory.appendingPathComponent("monica.json").path))

            let piped = Profile(name: "piped", home: home)
            let connected = try await piped.kith(
                ["contacts", "connect", "--monica-url", url.absoluteString, "--token-stdin"],
                stdin: MonicaStub.token + "\n")
            #expect(connected.status == 0, "\(connected)")
            #expect(
                connected.stdout.hasPrefix(
                    "Connected to Monica at \(url) as Peter Pan <peter@example.com> (token moni…oken)."), "\(connected)"
            )

            let shown = try await phone.kith(["contacts", "show", "42"])
            #expect(shown.status == 0 && shown.stderr.isEmpty, "\(shown)")
            for line in [
                "John Freaking Doe (#42)", "Work: Carpenter at Acme", "Emails: john@doe.com", "Phones: +44 7700 900123",
                "Tags: friends",
                "Relationships\n  son: ", "Addresses\n  #11", "Activities", "  [ ] Send the photos", "Reminders",
            ] {
                #expect(shown.stdout.contains(line), "\(line)\n\(shown)")
            }
            let activities = try #require(
                try await phone.object(["contacts", "show", "42"])["activities"] as? [[String: Any]])
            #expect(activities.map { $0["summary"] as? String } == ["Dinner", "Climbing at the gym"], "newest first")
            let dinner = try #require(activities.first?["happenedAt"] as? String)
            #expect(
                shown.stdout.contains("  \(dinner) (") && shown.stdout.contains(" ago)  Dinner"),
                "relative dates\n\(shown)")

            let synced = try await phone.object(["contacts", "sync"])
            #expect(synced["contacts"] as? Int == 3 && synced["countries"] as? Int == 5)
            let found = try await phone.object(["contacts", "search", "Jon"])
            #expect(Set(try Self.contacts(found).compactMap { $0["id"] as? Int }) == [42, 43, 44], "\(found)")
            let status = try await phone.object(["contacts", "status"])
            #expect(status["source"] as? String == "monica" && status["maskedToken"] as? String == "moni…oken")
            #expect(
                status["cachedContacts"] as? Int == 3 && status["user"] as? String == "Peter Pan <peter@example.com>")
        }

        // The stub is gone: reads come from the cache, an address edit waits on this device.
        let offline = try await phone.kith(["contacts", "list"])
        #expect(offline.status == 0, "\(offline)")
        #expect(offline.stderr.hasPrefix("offline: showing contacts cached at "), "\(offline)")
        #expect(offline.stdout.contains("42   John Freaking Doe"), "\(offline)")
        let offlineJSON = try await phone.object(["contacts", "list"])
        #expect(offlineJSON["fromCache"] as? Bool == true && (offlineJSON["total"] as? Int) == 3)
        let search = try await phone.kith(["contacts", "search", "snow"])
        #expect(search.status == 0 && search.stdout.contains("Jon Snow"), "\(search)")
        let shown = try await phone.kith(["contacts", "show", "42"])
        #expect(
            shown.status == 0 && shown.stderr.hasPrefix("offline: showing John Freaking Doe's details cached at "),
            "\(shown)")
        let queued = try await phone.kith([
            "contacts", "address", "add", "42", "--label", "Work", "--city", "Lyon", "--country", "FR",
        ])
        #expect(queued.status == 0, "\(queued)")
        #expect(
            queued.stdout.contains("saved on this device; will be sent when the server can be reached."), "\(queued)")
        #expect(try await phone.object(["contacts", "status"])["pendingAddressEdits"] as? Int == 1)
        let notSynced = try await phone.kith(["contacts", "sync"])
        #expect(notSynced.status == 1, "\(notSynced)")
        #expect(
            notSynced.stderr
                == "error: Cannot connect. Check your internet and try again. 1 address edit still saved on this device, to be sent later.\n",
            "\(notSynced)")

        // Disconnecting would lose the edit: it asks for --yes, then forgets the token and the cache.
        let careful = try await phone.kith(["contacts", "disconnect"])
        #expect(careful.status == 1 && careful.stderr.contains("--yes"), "\(careful)")
        #expect(try await phone.kith(["contacts", "disconnect", "--yes"]).status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: phone.directory.path)
        #expect(!files.contains("monica.json"), "\(files)")
        let data =
            (try? FileManager.default.contentsOfDirectory(atPath: phone.directory.appendingPathComponent("data").path))
            ?? []
        #expect(data.allSatisfy { !$0.hasPrefix("monica-") }, "\(data)")
        let nothing = try await phone.kith(["contacts", "list"])
        #expect(nothing.status == 1, "\(nothing)")
        #expect(
            nothing.stderr.hasPrefix("error: No contacts server: sign in to a Kith server (kith account login EMAIL)"),
            "\(nothing)")
    }

    @Test(
        "directions: the coordinates a Kith server found from the address come before this machine's geocoder; a decimal comma is a point",
        arguments: Engine.available)
    func directionsUseTheServersLocation(engine: Engine) async throws {
        try await NominatimStandIn.run { nominatim, geocoderURL in
            try await LiveServer.run(
                engine,
                configure: { config in
                    ContactBookAgainstKithTests.unlimited(&config)
                    config.geocoder = try? GeocoderSettings(geocoderURL.absoluteString)
                    config.jobs.pollInterval = .milliseconds(20)
                }
            ) { server in
                let home = try makeTemporaryDirectory("kith-e2e-contacts")
                defer { try? FileManager.default.removeItem(at: home) }
                let laptop = Profile(name: "laptop", home: home, server: server.url)
                let monica = try await Self.signUp(laptop)
                let ada = try await monica.createContact(MonicaContactInput(firstName: "Ada", lastName: "Lovelace")).id
                let added = try await laptop.object([
                    "contacts", "address", "add", String(ada), "--city", "Paris", "--country", "FR",
                ])
                let paris = try #require(added["id"] as? Int)
                try await eventually { try await monica.address(paris).postal.coordinates != nil }

                let directions = try await laptop.object(["contacts", "address", "directions", String(paris)])
                #expect(directions["locatedByServer"] as? Bool == true && directions["latitude"] as? Double == 48.8566)
                let text = try await laptop.kith(["contacts", "address", "directions", String(paris)])
                #expect(text.stdout.contains("Located from the address by the server at 48.8566, 2.3522.\n"), "\(text)")

                let typed = try await laptop.object([
                    "contacts", "address", "add", String(ada), "--city", "Lyon", "--latitude", "45,75", "--longitude",
                    "4,85",
                ])
                #expect(typed["latitude"] as? Double == 45.75 && typed["longitude"] as? Double == 4.85, "\(typed)")
                let lyon = try #require(typed["id"] as? Int)
                #expect(try await monica.address(lyon).coordinatesSource == "typed")
                #expect(nominatim.requests.count == 1, "typed coordinates need no geocoder")
            }
        }
    }

    @Test("directions: the address's own coordinates, else a Nominatim geocoder's (--geocoder or KITH_GEOCODER_URL)")
    func directionsUseTheGeocoderWhenNeeded() async throws {
        let home = try makeTemporaryDirectory("kith-e2e-contacts")
        defer { try? FileManager.default.removeItem(at: home) }
        let stub = MonicaStub()
        stub.answer("GET /api/addresses/11", .init(fixture: "address-11"))
        stub.answer("GET /api/addresses/12", .init(fixture: "address-created"))
        try await stub.run { url in
            try await NominatimStandIn.run { geocoder, geocoderURL in
                let connecting = Profile(
                    name: "phone", home: home, environment: ["KITH_MONICA_TOKEN": MonicaStub.token])
                let paris = try await connecting.object([
                    "contacts", "address", "directions", "11", "--monica-url", url.absoluteString,
                ])
                #expect(paris["geocoded"] as? Bool == false && paris["latitude"] as? Double == 48.8559, "\(paris)")
                #expect(paris["label"] as? String == "John Freaking Doe")
                #expect((paris["appleMaps"] as? String)?.contains("q=John%20Freaking%20Doe") == true, "\(paris)")

                let phone = Profile(name: "phone", home: home)
                let nowhere = try await phone.kith(["contacts", "address", "directions", "12"])
                #expect(
                    nowhere.status == 1 && nowhere.stderr == "error: \(GeocodingError.notConfigured.userMessage)\n",
                    "\(nowhere)")
                let located = try await Profile(
                    name: "phone", home: home, environment: ["KITH_GEOCODER_URL": geocoderURL.absoluteString]
                )
                .object(["contacts", "address", "directions", "12"])
                #expect(located["geocoded"] as? Bool == true && located["latitude"] as? Double == 37.3318, "\(located)")
                #expect(
                    (located["openStreetMap"] as? String)?.contains("to=John%20Freaking%20Doe") == true, "\(located)")
                let text = try await phone.kith([
                    "contacts", "address", "directions", "12", "--geocoder", geocoderURL.absoluteString,
                ])
                #expect(
                    text.stdout.hasPrefix(
                        "Directions to John Freaking Doe: 1 Infinite Loop, Cupertino, CA 95014, United States\n"),
                    "\(text)")
                #expect(
                    text.stdout.contains(
                        "Located by the geocoder at 37.3318, -122.0312.\nApple Maps:    https://maps.apple.com/?daddr=37.3318"
                    ), "\(text)")
                let asked = try #require(geocoder.requests.first)
                #expect(
                    asked.query["city"] == "Cupertino" && asked.query["countrycodes"] == "us"
                        && asked.query["postalcode"] == "95014")
                #expect(asked.userAgent?.hasPrefix("kith") == true, "Nominatim asks for an identifying User-Agent")
            }
            let closed = "http://127.0.0.1:\(try closedLoopbackPort())"
            let unreachable = try await Profile(name: "phone", home: home).kith(
                ["contacts", "address", "directions", "12", "--geocoder", closed])
            #expect(
                unreachable.status == 1 && unreachable.stderr.hasPrefix("error: The geocoder could not be reached"),
                "\(unreachable)")
        }
    }

    @Test(
        "offline: list and search from the cache, an address edit queued; back online, sync sends it",
        arguments: Engine.available)
    func offlineEditsAreSentWhenTheServerIsBack(engine: Engine) async throws {
        let home = try makeTemporaryDirectory("kith-e2e-contacts")
        let data = try makeTemporaryDirectory("kith-e2e-contacts-serve")
        let scratch = try await PostgresScratch.create(for: engine)
        defer {
            try? FileManager.default.removeItem(at: home)
            try? FileManager.default.removeItem(at: data)
        }
        let port = try closedLoopbackPort()
        let serve = {
            try ServeProcess(
                arguments: ["serve", "--data", data.path, "--port", String(port)]
                    + (scratch.map { ["--database-url", $0.url] } ?? []),
                environment: ["KITH_BCRYPT_COST": "4", "KITH_API_RATE_LIMIT": "100000"])
        }
        do {
            var server = try serve()
            defer { server.stop() }
            let (url, _) = try await server.waitUntilServing()
            let laptop = Profile(name: "laptop", home: home, server: url)
            let monica = try await Self.signUp(laptop)
            let john = try await monica.createContact(MonicaContactInput(firstName: "John", lastName: "Doe")).id
            _ = try await monica.createContact(MonicaContactInput(firstName: "Jonathan", lastName: "Swift"))
            _ = try await monica.createContact(MonicaContactInput(firstName: "Mary", lastName: "Poppins"))
            #expect(try await laptop.object(["contacts", "sync"])["contacts"] as? Int == 3)

            server.signal(SIGTERM)
            #expect(try await server.waitForExit(timeout: .seconds(20)) == 0)

            let listed = try await laptop.kith(["contacts", "list"])
            #expect(listed.status == 0 && listed.stderr.hasPrefix("offline: showing contacts cached at "), "\(listed)")
            #expect(listed.stdout.contains("John Doe") && listed.stdout.contains("Mary Poppins"), "\(listed)")
            let found = try await laptop.object(["contacts", "search", "Jon"])
            #expect(Set(try Self.names(found)) == ["John Doe", "Jonathan Swift"], "\(found)")
            let queued = try await laptop.kith([
                "contacts", "address", "add", String(john), "--city", "Paris", "--country", "FR",
            ])
            #expect(queued.status == 0, "\(queued)")
            #expect(
                queued.stdout.hasPrefix(
                    "Added address #-1 to John Doe: saved on this device; will be sent when the server can be reached."),
                "\(queued)")
            // The address made offline can be changed before it is sent (its temporary id after `--`).
            let edited = try await laptop.object(
                ["contacts", "address", "edit", "--label", "Home", "--city", "Lyon", "--country", "FR"],
                positional: ["-1"])
            #expect(edited["pending"] as? Bool == true && edited["city"] as? String == "Lyon", "\(edited)")
            #expect(try await laptop.object(["contacts", "status"])["pendingAddressEdits"] as? Int == 1)

            server = try serve()
            _ = try await server.waitUntilServing()
            let synced = try await laptop.object(["contacts", "sync"])
            #expect(synced["addressEditsSent"] as? Int == 1 && synced["pendingAddressEdits"] as? Int == 0, "\(synced)")
            let onServer = try await monica.addresses(of: john)
            #expect(onServer.map(\.city) == ["Lyon"] && onServer.first?.name == "Home")
            let addresses = try #require(
                try await laptop.object(["contacts", "addresses", String(john)])["addresses"] as? [[String: Any]])
            #expect(
                addresses.map { $0["id"] as? Int } == [onServer.first?.id]
                    && addresses.first?["pending"] as? Bool == false)
        } catch {
            await scratch?.drop()
            throw error
        }
        await scratch?.drop()
    }
}
