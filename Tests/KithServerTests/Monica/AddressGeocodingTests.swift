import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// An address without typed coordinates is located from its text by the server's geocoding job
/// (docs/contacts-web.md, "Maps from the address"), against `NominatimStandIn` on loopback: once
/// per search across accounts, one request a second on the server's clock, typed coordinates
/// winning, retried while the geocoder is down. On every engine.
@Suite("Contacts: addresses located from their text")
struct AddressGeocodingTests {
    /// A Monica server whose geocoder is the stand-in, its job runner polling every 20 ms.
    static func run(
        _ engine: Engine, failing: [Int] = [],
        _ body: @escaping @Sendable (MonicaUser, MonicaUser, TestServer, NominatimStandIn) async throws -> Void
    ) async throws {
        try await NominatimStandIn.run(failing: failing) { nominatim, url in
            try await MonicaHarness.run(
                engine,
                configure: { config in
                    JobTesting.configure([])(&config)
                    config.publicURL = "https://kith.example"
                    config.geocoder = try? GeocoderSettings(url.absoluteString)
                }
            ) { me, other, server in try await body(me, other, server, nominatim) }
        }
    }

    static func address(_ user: MonicaUser, _ contact: Int64, _ fields: [(String, JSONTree)]) async throws -> Int64 {
        let created = try await user.post(
            "/api/addresses", .object(JSONObject([("contact_id", .int(contact))] + fields)))
        #expect(created.status == .created, "\(created.text)")
        return try #require(created.dataID)
    }

    static func shown(_ user: MonicaUser, _ id: Int64) async throws -> JSONTree {
        try #require(try await user.get("/api/addresses/\(id)").data)
    }

    static let paris: [(String, JSONTree)] = [
        ("street", "Place de l'Hôtel de Ville"), ("city", "Paris"), ("country", "FR"),
    ]

    @Test(arguments: Engine.available)
    func anAddressGetsCoordinatesOnceTheJobHasRun(_ engine: Engine) async throws {
        try await Self.run(engine) { me, _, server, nominatim in
            let contact = try await me.contact("Ada")
            let id = try await Self.address(me, contact, Self.paris)
            try await server.app.jobsCaughtUp()

            let address = try await Self.shown(me, id)
            #expect(address["latitude"]?.doubleValue == 48.8566 && address["longitude"]?.doubleValue == 2.3522)
            #expect(address["coordinates_source"] == "geocoded")
            let asked = try #require(nominatim.requests.first)
            #expect(nominatim.requests.count == 1)
            #expect(asked.query["city"] == "Paris" && asked.query["countrycodes"] == "fr")
            #expect(asked.userAgent == "Kith/0.1 (+https://kith.example)")
            // The whole contact carries them too, as every Monica client reads addresses.
            let full = try await me.get("/api/contacts/\(contact)")
            #expect(full.data?["addresses"]?[0]?["latitude"]?.doubleValue == 48.8566)
        }
    }

    @Test(arguments: Engine.available)
    func twoAddressesQueuedAtOnceAreAskedASecondApart(_ engine: Engine) async throws {
        try await Self.run(engine) { me, _, server, nominatim in
            let contact = try await me.contact("Ada")
            let first = try await Self.address(me, contact, Self.paris)
            let second = try await Self.address(me, contact, [("city", "Lyon"), ("country", "FR")])
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 1)
            let sources = [
                try await Self.shown(me, first)["coordinates_source"],
                try await Self.shown(me, second)["coordinates_source"],
            ]
            #expect(sources.filter { $0 == "locating" }.count == 1, "one waits its turn: \(sources)")

            server.clock.advance(by: 0.999)
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 1, "a second request within the same second")

            server.clock.advance(by: 0.001)
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 2)
            #expect(try await Self.shown(me, first)["latitude"]?.doubleValue == 48.8566)
            #expect(try await Self.shown(me, second)["latitude"]?.doubleValue == 45.7640)
            // Waiting its turn spent none of the job's attempts.
            let jobs = try await JobTesting.repository(server).jobs(kind: AddressGeocoding.jobKind)
            #expect(jobs.allSatisfy { $0.status == .done && $0.attempts == 1 })
        }
    }

    @Test(arguments: Engine.available)
    func theSameAddressInAnotherAccountIsAnsweredFromTheCache(_ engine: Engine) async throws {
        try await Self.run(engine) { me, other, server, nominatim in
            _ = try await Self.address(me, try await me.contact("Ada"), Self.paris)
            try await server.app.jobsCaughtUp()
            server.clock.advance(by: 5)
            // The same search, typed differently.
            let theirs = try await Self.address(
                other, try await other.contact("Bob"),
                [("street", "place de l'hôtel  de ville "), ("city", "PARIS"), ("country", "fr")])
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 1)
            let address = try await Self.shown(other, theirs)
            #expect(address["latitude"]?.doubleValue == 48.8566 && address["coordinates_source"] == "geocoded")
        }
    }

    @Test(arguments: Engine.available)
    func notFoundIsKeptAndNotAskedAgain(_ engine: Engine) async throws {
        try await Self.run(engine) { me, _, server, nominatim in
            let contact = try await me.contact("Ada")
            let id = try await Self.address(me, contact, [("city", "Atlantis")])
            try await server.app.jobsCaughtUp()
            let address = try await Self.shown(me, id)
            #expect(address["coordinates_source"] == "not_found" && address["latitude"] == .null)
            server.clock.advance(by: 5)
            _ = try await me.get("/api/contacts/\(contact)/addresses")
            _ = try await Self.address(me, contact, [("city", "atlantis")])
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 1)
        }
    }

    @Test(arguments: Engine.available)
    func typedCoordinatesWinAndAreNeverOverwritten(_ engine: Engine) async throws {
        // The geocoder is down for the first attempt, so the job is still waiting when the
        // coordinates are typed.
        try await Self.run(engine, failing: [503]) { me, _, server, nominatim in
            let contact = try await me.contact("Ada")
            let typed = try await Self.address(me, contact, Self.paris + [("latitude", 48.85), ("longitude", 2.35)])
            let id = try await Self.address(me, contact, Self.paris)
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 1)
            let changed = try await me.put(
                "/api/addresses/\(id)",
                .object(
                    JSONObject([("contact_id", .int(contact)), ("latitude", 1.5), ("longitude", 2.5)] + Self.paris)))
            #expect(changed.status == .ok)

            server.clock.advance(by: 3600)
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 1, "nothing left to locate")
            for (address, latitude) in [(typed, 48.85), (id, 1.5)] {
                let shown = try await Self.shown(me, address)
                #expect(shown["latitude"]?.doubleValue == latitude && shown["coordinates_source"] == "typed")
            }
        }
    }

    @Test(arguments: Engine.available)
    func aGeocoderThatIsDownIsAskedAgainLater(_ engine: Engine) async throws {
        try await Self.run(engine, failing: [503, 429]) { me, _, server, nominatim in
            let id = try await Self.address(me, try await me.contact("Ada"), Self.paris)
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 1)
            #expect(try await Self.shown(me, id)["coordinates_source"] == "locating")
            let job = try #require(try await JobTesting.repository(server).jobs(kind: AddressGeocoding.jobKind).first)
            #expect(job.status == .pending && job.lastError?.contains("503") == true)

            server.clock.advance(by: 60)
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 2)
            server.clock.advance(by: 120)
            try await server.app.jobsCaughtUp()
            #expect(nominatim.requests.count == 3)
            #expect(try await Self.shown(me, id)["coordinates_source"] == "geocoded")
        }
    }

    @Test(arguments: Engine.available)
    func editingTheTextLocatesTheAddressAgain(_ engine: Engine) async throws {
        try await Self.run(engine) { me, _, server, nominatim in
            let contact = try await me.contact("Ada")
            let id = try await Self.address(me, contact, Self.paris)
            try await server.app.jobsCaughtUp()
            // An app sends back every field it read, the geocoded coordinates among them.
            func put(_ fields: [(String, JSONTree)]) async throws {
                let answer = try await me.put(
                    "/api/addresses/\(id)",
                    .object(
                        JSONObject(
                            [("contact_id", .int(contact)), ("latitude", 48.8566), ("longitude", 2.3522)] + fields)))
                #expect(answer.status == .ok, "\(answer.text)")
            }
            try await put([("name", "Home")] + Self.paris)
            #expect(try await Self.shown(me, id)["coordinates_source"] == "geocoded")
            // Within the second of the first request, so the new search waits its turn.
            try await put([("city", "Lyon"), ("country", "FR")])
            #expect(try await Self.shown(me, id)["coordinates_source"] == "locating")
            server.clock.advance(by: 1)
            try await server.app.jobsCaughtUp()
            let address = try await Self.shown(me, id)
            #expect(address["latitude"]?.doubleValue == 45.7640 && address["coordinates_source"] == "geocoded")
            #expect(nominatim.requests.count == 2)
        }
    }

    @Test(arguments: Engine.available)
    func aVCardImportsAddressesAreLocatedToo(_ engine: Engine) async throws {
        try await Self.run(engine) { me, _, server, nominatim in
            let card =
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\nADR;TYPE=HOME:;;1 Unter den Linden;Berlin;;10117;Germany\r\nEND:VCARD\r\n"
            #expect(try await MonicaVCardsTests.send(me, card).status == .ok)
            try await server.app.jobsCaughtUp()
            let addresses = try await me.get("/api/addresses")
            let address = try #require(addresses.data?[0])
            #expect(address["latitude"]?.doubleValue == 52.52 && address["coordinates_source"] == "geocoded")
            #expect(nominatim.requests.first?.query["countrycodes"] == "de")
        }
    }

    @Test(arguments: Engine.available)
    func withGeocodingOffNothingIsQueued(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, configure: JobTesting.configure([])) { me, _, server in
            #expect(server.config.geocoder == nil)
            let id = try await Self.address(me, try await me.contact("Ada"), Self.paris)
            try await server.app.jobsCaughtUp()
            #expect(try await JobTesting.repository(server).jobs(kind: AddressGeocoding.jobKind).isEmpty)
            let address = try await Self.shown(me, id)
            #expect(address["latitude"] == .null && address["coordinates_source"] == .null)
        }
    }

    @Test(arguments: Engine.available)
    func coordinatesTakeADecimalComma(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let contact = try await me.contact("Ada")
            let id = try await Self.address(
                me, contact, [("city", "Paris"), ("latitude", "48,8566"), ("longitude", "2,3522")])
            let address = try await Self.shown(me, id)
            #expect(address["latitude"]?.doubleValue == 48.8566 && address["longitude"]?.doubleValue == 2.3522)
            let refused = try await me.post(
                "/api/addresses",
                ["contact_id": .int(contact), "city": "Paris", "latitude": "48,85,66", "longitude": "2"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("latitude must be a number"))
            #expect(try await me.get("/api/addresses").json["meta"]?["total"] == 1)
        }
    }

    @Test func theSettingNamesAServerOrTurnsGeocodingOff() throws {
        #expect(
            try ServerConfig.fromEnvironment([:]).geocoder?.baseURL.absoluteString
                == "https://nominatim.openstreetmap.org")
        let own = try ServerConfig.fromEnvironment(["KITH_GEOCODER_URL": "http://127.0.0.1:8088/nominatim"])
        #expect(own.geocoder?.baseURL.absoluteString == "http://127.0.0.1:8088/nominatim")
        #expect(try ServerConfig.fromEnvironment(["KITH_GEOCODER_URL": "off"]).geocoder == nil)
        let refused = #expect(throws: ConfigError.self) {
            _ = try ServerConfig.fromEnvironment(["KITH_GEOCODER_URL": "nominatim.example"])
        }
        #expect(refused?.description.contains("KITH_GEOCODER_URL must be") == true)
    }
}
