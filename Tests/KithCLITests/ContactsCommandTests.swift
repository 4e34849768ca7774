import Foundation
import KithKit
import KithTestSupport
import Synchronization
import Testing

@testable import KithServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `kith contacts …` against the Kith server's Monica-compatible `/api`: the profile's session, or
/// a connection made with `--monica-url` and a token from standard input or the environment.
@Suite("kith contacts: text and JSON")
struct ContactsCommandTests {
    /// Signs `device` up and fills its account with contacts through `/api`; returns their ids by first name.
    static func signUpWithContacts(_ device: Device, server: TestServer) async throws -> [String: Int] {
        try await device.signUp()
        let token = try #require(
            try await device.object(["account", "tokens", "create", "seeding"])["token"] as? String)
        let monica = MonicaClient(
            server: try MonicaServerAddress(server.url), token: token, transport: URLSessionTransport(timeout: 30))
        var ids: [String: Int] = [:]
        for (first, last) in [("Ada", "Lovelace"), ("Grace", "Hopper"), ("Jon", "Snow")] {
            ids[first] = try await monica.createContact(MonicaContactInput(firstName: first, lastName: last)).id
        }
        return ids
    }

    @Test("gifts' values in the account's currency")
    func giftsAreShownInTheAccountsCurrency() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let device = Device(home: home, server: server.url)
                let ids = try await Self.signUpWithContacts(device, server: server)
                let ada = try #require(ids["Ada"])
                let token = try #require(
                    try await device.object(["account", "tokens", "create", "gifts"])["token"] as? String)
                let monica = MonicaClient(
                    server: try MonicaServerAddress(server.url), token: token,
                    transport: URLSessionTransport(timeout: 30))
                _ = try await monica.gifts.create(MonicaGiftInput(contactID: ada, name: "A slide rule", amount: 42))
                let me = try #require(try await device.object(["account", "whoami"])["id"] as? String)
                // What the account page's Currency for gifts saves.
                try await GiftCurrencySetting(
                    accounts: MonicaAccountRepository(database: server.app.database), clock: .system
                ).choose("GBP", for: me.lowercased())

                let shown = await device.kith(["contacts", "show", String(ada)])
                #expect(shown.stdout.contains("A slide rule") && shown.stdout.contains("£42.00"), "\(shown)")
                let json = try await device.object(["contacts", "show", String(ada)])
                #expect((json["gifts"] as? [[String: Any]])?.first?["amount"] as? String == "£42.00", "\(json)")
            }
        }
    }

    @Test("show lists a contact's calls, conversations, debts, pets and life events")
    func showListsCallsDebtsPetsAndLifeEvents() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let device = Device(home: home, server: server.url)
                let ids = try await Self.signUpWithContacts(device, server: server)
                let ada = try #require(ids["Ada"])
                let token = try #require(
                    try await device.object(["account", "tokens", "create", "everyday"])["token"] as? String)
                let api = MonicaAPI(server: server.url, token: token)
                func post(_ path: String, _ body: [String: Any]) async throws -> [String: Any] {
                    try await api.object("POST", path, body)
                }
                _ = try await post(
                    "calls", ["contact_id": ada, "called_at": "2024-03-01 10:00", "content": "About the engine"])
                _ = try await post(
                    "calls",
                    ["contact_id": ada, "called_at": "2024-04-02", "contact_called": true, "content": "Thanks"])
                _ = try await post(
                    "debts",
                    ["contact_id": ada, "in_debt": "no", "status": "inprogress", "amount": 12, "reason": "Lunch"])
                _ = try await post("debts", ["contact_id": ada, "in_debt": "yes", "status": "completed", "amount": 5])
                _ = try await post("pets", ["contact_id": ada, "pet_category_id": 3, "name": "Puff"])
                let newJob = try await api.id(in: "lifeeventtypes", named: "New job")
                _ = try await post(
                    "lifeevents",
                    [
                        "contact_id": ada, "life_event_type_id": newJob, "happened_at": "1833-06-05", "name": "Analyst",
                        "has_reminder": false, "happened_at_month_unknown": false, "happened_at_day_unknown": false,
                    ])
                let types = try await device.object(["contacts", "show", String(ada)])
                #expect((types["calls"] as? [[String: Any]])?.count == 2, "\(types)")
                let medium = try #require(
                    (try await post(
                        "contactfields", ["contact_id": ada, "contact_field_type_id": 1, "data": "ada@example.com"])[
                            "contact_field_type"] as? [String: Any])?["id"] as? Int)
                let conversation = try #require(
                    try await post(
                        "conversations",
                        ["contact_id": ada, "happened_at": "2024-04-03", "contact_field_type_id": medium])[
                            "id"] as? Int)
                _ = try await post(
                    "conversations/\(conversation)/messages",
                    ["contact_id": ada, "written_at": "2024-04-03", "written_by_me": true, "content": "Shall we meet?"])

                let shown = await device.kith(["contacts", "show", String(ada)])
                #expect(shown.stdout.contains("\nCalls\n  2024-04-02"), "\(shown)")
                #expect(shown.stdout.contains("  Ada called: Thanks\n"), "\(shown)")
                #expect(shown.stdout.contains("  you called: About the engine\n"), "\(shown)")
                #expect(shown.stdout.contains("\nConversations\n  2024-04-03"), "\(shown)")
                #expect(shown.stdout.contains("(Email), 1 message: Shall we meet?\n"), "\(shown)")
                #expect(
                    shown.stdout.contains("\nDebts\n  Ada owes you $12.00 for Lunch\n  You owe Ada $5.00 (settled)\n"),
                    "\(shown)")
                #expect(shown.stdout.contains("\nPets\n  Puff, cat\n"), "\(shown)")
                #expect(shown.stdout.contains("\nLife events\n  1833-06-05"), "\(shown)")
                #expect(shown.stdout.contains("  New job: Analyst\n"), "\(shown)")
                let json = try await device.object(["contacts", "show", String(ada)])
                let debts = try #require(json["debts"] as? [[String: Any]])
                #expect(debts.first?["youOwe"] as? Bool == false && debts.first?["amount"] as? String == "$12.00")
                #expect((json["pets"] as? [[String: Any]])?.first?["kind"] as? String == "Cat")
                #expect((json["lifeEvents"] as? [[String: Any]])?.first?["happenedOn"] as? String == "1833-06-05")
                let conversations = try #require(json["conversations"] as? [[String: Any]])
                #expect(conversations.first?["medium"] as? String == "Email")
                #expect((conversations.first?["messages"] as? [[String: Any]])?.first?["byMe"] as? Bool == true)
            }
        }
    }

    /// `/api` allows a few requests a minute here. A read the server refuses with 429 waits as
    /// long as `Retry-After` says, once; still refused, it shows the cache and says the server
    /// asked to slow down, never "offline".
    @Test("a server that asks to slow down is waited for, and is not called offline")
    func rateLimitedReadsWaitAndSaySo() async throws {
        let clock = ShiftedClock(by: 0)
        try await TestServer.run(configure: {
            $0.clock = clock.clock
            $0.monica.rateLimitPerMinute = 4
        }) { server in
            try await withHome { home in
                var device = Device(home: home, server: server.url)
                try await device.signUp()
                #expect(await device.kith(["contacts", "list"]).exitCode == 0)
                let waits = Locked<[Duration]>([])
                device.sleep = { waited in waits.withLock { $0.append(waited) } }
                var limited: CLIRun?
                for _ in 0..<6 where limited == nil {
                    let run = await device.kith(["contacts", "list"])
                    #expect(run.exitCode == 0, "\(run)")
                    if run.stderr.contains("asked to slow down (too many requests)") { limited = run }
                }
                let shown = try #require(limited, "the limit was never reached")
                #expect(!shown.stderr.contains("offline"), "\(shown)")
                #expect(shown.stderr.contains("The server asked to slow down: waiting "), "\(shown)")
                #expect(shown.stderr.contains("Try again in "), "\(shown)")
                #expect(shown.stdout.hasPrefix("No contacts yet."), "the cached page is shown: \(shown)")
                #expect(!waits.value.isEmpty && waits.value.allSatisfy { $0 > .zero && $0 <= .seconds(60) })

                // Waiting as long as the server says lets the same read through.
                device.sleep = { waited in
                    clock.shift(to: Double(waited.components.seconds) + 1)
                }
                let patient = await device.kith(["contacts", "list"])
                #expect(patient.exitCode == 0, "\(patient)")
                #expect(patient.stderr.contains("The server asked to slow down: waiting "), "\(patient)")
                #expect(!patient.stderr.contains("showing"), "the server answered after the wait: \(patient)")
            }
        }
    }

    @Test("no contacts server yet: status says what to do, a listing fails in one line")
    func notConnected() async throws {
        try await withHome { home in
            let device = Device(home: home, server: nil)
            let status = await device.kith(["contacts", "status"])
            #expect(status.stdout.hasPrefix("Not connected: sign in to a Kith server"), "\(status)")
            let statusJSON = try await device.object(["contacts", "status"])
            #expect(statusJSON["source"] as? String == "none")
            let list = await device.kith(["contacts", "list"])
            #expect(list.exitCode == 1 && list.stdout.isEmpty, "\(list)")
            #expect(list.stderr.hasPrefix("error: No contacts server: sign in to a Kith server"), "\(list)")
            let listJSON = await device.kith(["--json", "contacts", "list"])
            #expect(listJSON.stderr.hasPrefix("{\"error\":{\"code\":\"invalid\""), "\(listJSON)")
        }
    }

    @Test("list, search, show, addresses, address edits, countries, sync and status against the signed-in server")
    func againstTheKithServer() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let device = Device(home: home, server: server.url)
                let ids = try await Self.signUpWithContacts(device, server: server)
                let ada = try #require(ids["Ada"])

                let page = try await device.object(["contacts", "list"])
                #expect(page["page"] as? Int == 1 && page["lastPage"] as? Int == 1 && page["perPage"] as? Int == 50)
                #expect(page["total"] as? Int == 3 && page["fromCache"] as? Bool == false)
                let contacts = try #require(page["contacts"] as? [[String: Any]])
                #expect(contacts.compactMap { $0["name"] as? String } == ["Ada Lovelace", "Grace Hopper", "Jon Snow"])
                #expect(
                    contacts.first?["firstName"] as? String == "Ada" && contacts.first?["isStarred"] as? Bool == false)
                let listed = await device.kith(["contacts", "list"])
                #expect(listed.stdout.hasPrefix("Contacts 1-3 of 3 (page 1 of 1)\n"), "\(listed)")
                #expect(listed.stdout.contains("   Ada Lovelace\n"), "\(listed)")

                let found = try await device.object(["contacts", "search", "ada"])
                #expect(found["query"] as? String == "ada")
                #expect((found["contacts"] as? [[String: Any]])?.first?["id"] as? Int == ada, "\(found)")
                let nothing = await device.kith(["contacts", "search", "zzzz"])
                #expect(nothing.stdout == "No contacts found.\n", "\(nothing)")

                let added = try await device.object(
                    [
                        "contacts", "address", "add", String(ada), "--label", "Home", "--street", "10 rue de Rivoli",
                        "--city", "Paris", "--postal-code", "75001", "--country", "FR",
                    ])
                let addressID = try #require(added["id"] as? Int)
                #expect(added["contactID"] as? Int == ada && added["countryCode"] as? String == "FR")
                #expect(added["lines"] as? [String] == ["10 rue de Rivoli", "75001 Paris", "France"], "\(added)")
                #expect(added["pending"] as? Bool == false)
                let addresses = await device.kith(["contacts", "addresses", String(ada)])
                #expect(
                    addresses.stdout == "#\(addressID) Home\n  10 rue de Rivoli\n  75001 Paris\n  France\n",
                    "\(addresses)")
                let edited = await device.kith(
                    [
                        "contacts", "address", "edit", String(addressID), "--label", "Home", "--city", "Lyon",
                        "--country",
                        "FR",
                    ])
                #expect(
                    edited.stdout == "Changed address #\(addressID).\n  #\(addressID) Home\n    Lyon\n    France\n",
                    "\(edited)")

                let shown = try await device.object(["contacts", "show", String(ada)])
                #expect((shown["contact"] as? [String: Any])?["name"] as? String == "Ada Lovelace")
                #expect((shown["addresses"] as? [[String: Any]])?.first?["city"] as? String == "Lyon")
                #expect(shown["fromCache"] as? Bool == false && shown["pendingAddressEdits"] as? Int == 0)
                let shownText = await device.kith(["contacts", "show", String(ada)])
                #expect(shownText.stdout.hasPrefix("Ada Lovelace (#\(ada))\n"), "\(shownText)")
                #expect(shownText.stdout.contains("\nAddresses\n  #\(addressID) Home\n"), "\(shownText)")
                let unknown = await device.kith(["contacts", "show", "999999"])
                #expect(unknown.exitCode == 1 && unknown.stderr == "error: No contact with id 999999.\n", "\(unknown)")

                let deleted = try await device.object(["contacts", "address", "delete", String(addressID), "--yes"])
                #expect(deleted["deleted"] as? Int == addressID && deleted["pending"] as? Bool == false)

                let countries = try await device.array(["contacts", "countries", "france"])
                #expect(countries.first?["code"] as? String == "FR", "\(countries)")
                #expect(
                    Set(countries.first?.keys.map { $0 } ?? []) == ["code", "name", "postalCodeLabel", "regionLabel"])

                let synced = try await device.object(["contacts", "sync"])
                #expect(synced["contacts"] as? Int == 3 && synced["pendingAddressEdits"] as? Int == 0, "\(synced)")
                #expect((synced["addressEditsRefused"] as? [Any])?.isEmpty == true && synced["syncedAt"] is String)
                let status = try await device.object(["contacts", "status"])
                #expect(status["source"] as? String == "kith" && status["cachedContacts"] as? Int == 3, "\(status)")
                let statusText = await device.kith(["contacts", "status"])
                #expect(statusText.stdout.hasPrefix("The Kith server at "), "\(statusText)")
                #expect(statusText.stdout.contains("\nCache: 3 contacts, last synced "), "\(statusText)")
            }
        }
    }

    @Test("merge keeps the first contact with everything on the second, and deletes the second")
    func merge() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let device = Device(home: home, server: server.url)
                let ids = try await Self.signUpWithContacts(device, server: server)
                let ada = try #require(ids["Ada"])
                let grace = try #require(ids["Grace"])
                _ = await device.kith(["contacts", "sync"])
                _ = try await device.object(
                    ["contacts", "address", "add", String(grace), "--city", "Arlington", "--country", "US"])

                let merged = await device.kith(["contacts", "merge", String(ada), String(grace)])
                #expect(merged.exitCode == 0, "\(merged)")
                #expect(
                    merged.stdout.hasPrefix(
                        "Merged contact \(grace) into Ada Lovelace (\(ada)); contact \(grace) is deleted.\n\nAda Lovelace (#\(ada))\n"
                    ),
                    "\(merged)")
                #expect(merged.stdout.contains("Arlington"), "the address moved: \(merged)")
                let listed = try await device.object(["contacts", "list"])
                let names = (listed["contacts"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
                #expect(names == ["Ada Lovelace", "Jon Snow"], "\(listed)")
                let cached = try await device.object(["contacts", "status"])
                #expect(cached["cachedContacts"] as? Int == 2, "the cache forgot the merged contact: \(cached)")

                let again = await device.kith(["contacts", "merge", String(ada), String(grace)])
                #expect(
                    again.exitCode == 1 && again.stderr == "error: The selected contact id is invalid.\n", "\(again)")
                let gone = await device.kith(["contacts", "merge", String(grace), String(ada)])
                #expect(
                    gone.exitCode == 1 && gone.stderr.hasPrefix("error: No contacts \(grace) and \(ada) to merge"),
                    "\(gone)")
                let itself = await device.kith(["contacts", "merge", String(ada), String(ada)])
                #expect(
                    itself.exitCode == 1 && itself.stderr == "error: A contact cannot be merged with itself.\n",
                    "\(itself)")
            }
        }
    }

    @Test("--monica-url with the token from standard input or KITH_MONICA_TOKEN, then disconnect")
    func monicaConnection() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let owner = Device("owner", home: home, server: server.url)
                _ = try await Self.signUpWithContacts(owner, server: server)
                let token = try #require(
                    try await owner.object(["account", "tokens", "create", "monica"])["token"] as? String)
                let api = server.url.absoluteString

                let phone = Device("phone", home: home, server: nil)
                let connected = try await phone.object(
                    ["contacts", "connect", "--monica-url", api, "--token-stdin"], input: token + "\n")
                #expect(connected["source"] as? String == "monica", "\(connected)")
                let masked = try #require(connected["maskedToken"] as? String)
                #expect(!masked.contains(token), "the token is never printed whole")
                #expect(try await phone.object(["contacts", "list"])["total"] as? Int == 3)
                let disconnected = await phone.kith(["contacts", "disconnect"])
                #expect(disconnected.stdout.hasPrefix("Disconnected from "), "\(disconnected)")

                var tablet = Device("tablet", home: home, server: nil)
                tablet.environment["KITH_MONICA_TOKEN"] = token
                let listed = try await tablet.object(["contacts", "list", "--monica-url", api])
                #expect(listed["total"] as? Int == 3, "\(listed)")
                #expect(try await tablet.object(["contacts", "status"])["source"] as? String == "monica")

                let noToken = await Device("desk", home: home, server: nil).kith([
                    "contacts", "connect", "--monica-url", api,
                ])
                #expect(noToken.exitCode == 1, "no terminal to prompt on: \(noToken)")
                #expect(noToken.stderr.contains("with --token-stdin"), "\(noToken)")
            }
        }
    }

    @Test("--cloud picks Monica's cloud address, and is not given with --monica-url")
    func cloud() async throws {
        try await withHome { home in
            let device = Device(home: home, server: nil)
            let noToken = await device.kith(["contacts", "connect", "--cloud"])
            #expect(noToken.exitCode == 1, "no terminal to prompt on: \(noToken)")
            #expect(
                noToken.stderr
                    == "error: Give the API token of https://app.monicahq.com/api with --token-stdin or the KITH_MONICA_TOKEN environment variable.\n",
                "\(noToken)")
            let both = await device.kith(["contacts", "connect", "--cloud", "--monica-url", "https://monica.example"])
            #expect(both.exitCode == 64 && both.stderr.contains("Give --cloud or --monica-url, not both"), "\(both)")
            let neither = await device.kith(["contacts", "connect"])
            #expect(neither.exitCode == 64 && neither.stderr.contains("or --cloud for Monica's own"), "\(neither)")
            let help = await device.kith(["contacts", "connect", "--help"])
            #expect(help.stdout.contains("--cloud") && help.stdout.contains("https://app.monicahq.com/api"), "\(help)")
            let status = try await device.object(["contacts", "status"])
            #expect(status["source"] as? String == "none", "nothing saved")
        }
    }

    @Test("cache clear forgets the cached contacts and keeps the address edits waiting to be sent")
    func cacheClear() async throws {
        try await withHome { home in
            var device = Device(home: home, server: nil)
            let before = await device.kith(["contacts", "cache", "clear"])
            #expect(before.exitCode == 1 && before.stderr.contains("no contacts to cache"), "\(before)")
            let served = Mutex<(url: URL?, ada: Int)>((nil, 0))
            try await TestServer.run { server in
                let online = Device(home: home, server: server.url)
                let ada = try #require(try await Self.signUpWithContacts(online, server: server)["Ada"])
                served.withLock { $0 = (server.url, ada) }
                let synced = try await online.object(["contacts", "sync"])
                #expect(synced["contacts"] as? Int == 3, "\(synced)")
            }
            let (url, ada) = served.withLock { $0 }
            device.server = url
            // The server is gone: the edit waits on this device.
            let queued = try await device.object(
                ["contacts", "address", "add", String(ada), "--label", "Home", "--city", "Paris", "--country", "FR"])
            #expect(queued["pending"] as? Bool == true, "\(queued)")

            let cleared = try await device.object(["contacts", "cache", "clear"])
            #expect(
                cleared["contactsForgotten"] as? Int == 3 && cleared["pendingAddressEdits"] as? Int == 1, "\(cleared)")
            #expect(cleared["server"] as? String == (url?.absoluteString ?? "?") + "/api", "\(cleared)")
            let status = try await device.object(["contacts", "status"])
            #expect(status["cachedContacts"] as? Int == 0 && status["pendingAddressEdits"] as? Int == 1, "\(status)")
            let listed = await device.kith(["contacts", "list"])
            #expect(!listed.stdout.contains("Ada Lovelace"), "nothing cached to show offline: \(listed)")

            let again = await device.kith(["contacts", "cache", "clear"])
            #expect(again.exitCode == 0 && again.stdout.hasPrefix("The offline cache of "), "\(again)")
            #expect(again.stdout.contains("1 address edit made offline is kept, to be sent by kith contacts sync."))
        }
    }
}
