import Foundation
import HTTPTypes
import HummingbirdTesting
import KithTestSupport
import Testing

@testable import KithServer

/// KITH_MAP_TILES: where the Contacts pages' maps come from, and the one image origin the pages'
/// content security policy allows for them.
@Suite("Map tiles: configuration and content security policy")
struct MapTilesTests {
    typealias Browser = WebSessionTests.Browser

    static func imageSources(_ response: TestResponse) -> [String] {
        let policy = response.headers[.contentSecurityPolicy] ?? ""
        let directive = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("img-src ") }
        return directive.map { $0.split(separator: " ").dropFirst().map(String.init) } ?? []
    }

    @Test func theDefaultIsOpenStreetMapsTileServerWithItsCredit() throws {
        let config = try ServerConfig.fromEnvironment([:])
        #expect(config.mapTiles?.template == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        #expect(config.mapTiles?.attribution == "© OpenStreetMap contributors")
        #expect(config.mapTiles?.origin == "https://tile.openstreetmap.org")
    }

    @Test func aTemplateAttributionOrOff() throws {
        let custom = try ServerConfig.fromEnvironment([
            "KITH_MAP_TILES": "http://127.0.0.1:8099/tiles/{z}/{x}/{y}.png  © Our own tiles, 2026 "
        ])
        #expect(custom.mapTiles?.template == "http://127.0.0.1:8099/tiles/{z}/{x}/{y}.png")
        #expect(custom.mapTiles?.attribution == "© Our own tiles, 2026")
        #expect(custom.mapTiles?.origin == "http://127.0.0.1:8099")
        let unnamed = try ServerConfig.fromEnvironment(["KITH_MAP_TILES": "https://Tiles.Example.org/{z}/{x}/{y}.png"])
        #expect(unnamed.mapTiles?.attribution == "Map tiles: tiles.example.org")
        #expect(unnamed.mapTiles?.origin == "https://tiles.example.org")
        for off in ["off", "OFF", " none "] {
            #expect(try ServerConfig.fromEnvironment(["KITH_MAP_TILES": off]).mapTiles == nil, "\(off)")
        }
        #expect(try ServerConfig.fromEnvironment(["KITH_MAP_TILES": ""]).mapTiles == .openStreetMap)
    }

    @Test func aTemplateThatIsNotOneStopsTheServerWithAMessage() {
        let refused: [(String, String)] = [
            ("ftp://tiles.example/{z}/{x}/{y}.png", "must be an http(s) URL template"),
            ("tiles.example/{z}/{x}/{y}.png", "must be an http(s) URL template"),
            ("https://tiles.example/{z}/{x}.png", "must contain {z}, {x} and {y}"),
            ("https://user:secret@tiles.example/{z}/{x}/{y}.png", "must be an http(s) URL template"),
            // What would add a directive of its own to the content security policy.
            ("https://tiles.example/{z}/{x}/{y}.png;script-src", "characters a tile URL cannot have"),
            ("https://tiles.example/{z}/{x}/{y}.png'", "characters a tile URL cannot have"),
            ("https://tiles.example/{z}/{x}/{y}.png " + String(repeating: "©", count: 201), "at most 200 characters"),
        ]
        for (value, message) in refused {
            #expect("\(value)") {
                _ = try ServerConfig.fromEnvironment(["KITH_MAP_TILES": value])
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }

    @Test(arguments: Engine.available)
    func thePagesAllowTheTileServerAndTheContactPageNamesIt(engine: Engine) async throws {
        let setting = "https://tiles.example.org:8443/osm/{z}/{x}/{y}.png © Example tiles"
        try await TestServer.withRouter(engine, configure: { $0.mapTiles = try? MapTiles(setting) }) { _, client in
            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let contact = try await browser.get(client, "/contacts/7")
            #expect(Self.imageSources(contact) == ["'self'", "data:", "https://tiles.example.org:8443"])
            #expect(
                contact.text.contains(
                    #"data-map-tiles="https://tiles.example.org:8443/osm/{z}/{x}/{y}.png" data-map-attribution="© Example tiles""#
                ))
            #expect(contact.text.contains(#"<script src="/static/tile-map.js" defer>"#))
            let account = try await browser.get(client, "/account")
            #expect(Self.imageSources(account) == ["'self'", "data:", "https://tiles.example.org:8443"])
            let policy = contact.headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("default-src 'self'; script-src 'self'; style-src 'self';"), "the rest as it was")
        }
    }

    @Test(arguments: Engine.available)
    func mapsOffAllowNoOtherImageOrigin(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: { $0.mapTiles = nil }) { _, client in
            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let contact = try await browser.get(client, "/contacts/7")
            #expect(Self.imageSources(contact) == ["'self'", "data:"])
            #expect(!contact.text.contains("data-map-tiles"), "the page shows Map unavailable")
        }
    }
}
