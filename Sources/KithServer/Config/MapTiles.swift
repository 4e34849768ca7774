import Foundation

/// Where the Contacts pages' address maps get their tiles (`KITH_MAP_TILES`, `--map-tiles`): a URL
/// template with `{z}`, `{x}` and `{y}`, and the attribution the tile server asks to show. The
/// pages' content security policy lets images come from this template's origin and no other.
/// `off` (or `none`) turns maps off: the pages then show "Map unavailable" with the directions links.
public struct MapTiles: Sendable, Equatable {
    /// `https://tile.openstreetmap.org/{z}/{x}/{y}.png`
    public let template: String
    /// "© OpenStreetMap contributors": shown on every map, as the tile servers' terms require.
    public let attribution: String
    /// `scheme://host[:port]` of the template, the one image origin the pages allow besides their own.
    public let origin: String

    public static let openStreetMap = try! MapTiles("https://tile.openstreetmap.org/{z}/{x}/{y}.png")

    static let openStreetMapAttribution = "© OpenStreetMap contributors"
    static let longestAttribution = 200

    /// `TEMPLATE [ATTRIBUTION…]`: the template, then after a space the attribution (a URL has no
    /// spaces). Without one, OpenStreetMap's tile server gets its own and another server
    /// "Map tiles: <host>".
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let template = String(trimmed.prefix { !$0.isWhitespace })
        let given = trimmed.dropFirst(template.count).trimmingCharacters(in: .whitespaces)
        guard let components = URLComponents(string: template), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil, components.fragment == nil
        else {
            throw ConfigError(
                "KITH_MAP_TILES must be an http(s) URL template such as https://tile.openstreetmap.org/{z}/{x}/{y}.png, or off (got \"\(text)\")"
            )
        }
        for placeholder in ["{z}", "{x}", "{y}"] where !template.contains(placeholder) {
            throw ConfigError("KITH_MAP_TILES must contain {z}, {x} and {y} (got \"\(template)\")")
        }
        // The origin goes into the Content-Security-Policy header: only characters a host name
        // or an IP address has, so no value can add a directive of its own.
        let hostCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz0123456789.-:[]")
        guard host.lowercased().unicodeScalars.allSatisfy(hostCharacters.contains),
            !template.contains(where: { "\"';,<>\\".contains($0) })
        else {
            throw ConfigError("KITH_MAP_TILES has characters a tile URL cannot have (got \"\(template)\")")
        }
        self.template = template
        let port = components.port.map { ":\($0)" } ?? ""
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        origin = "\(scheme)://\(shownHost.lowercased())\(port)"
        if !given.isEmpty {
            guard given.count <= Self.longestAttribution else {
                throw ConfigError(
                    "the map attribution in KITH_MAP_TILES must be at most \(Self.longestAttribution) characters")
            }
            attribution = given
        } else {
            attribution =
                host.lowercased().hasSuffix("openstreetmap.org")
                ? Self.openStreetMapAttribution : "Map tiles: \(host.lowercased())"
        }
    }

    /// The setting's value: nil for `off`/`none`, the default for an empty one.
    public static func setting(_ text: String) throws -> MapTiles? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "off", "none": nil
        case "": .openStreetMap
        default: try MapTiles(text)
        }
    }
}
