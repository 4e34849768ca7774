import Foundation

/// Links that open a map app at an address, or ask it for directions there, with the contact's name
/// as the place's label. Apple Maps links open the Maps app on Apple devices and a web map
/// elsewhere; OpenStreetMap links work in any browser.
public enum MapLinks {
    /// Apple Maps showing a pin named `label` at `point`.
    public static func appleMaps(_ point: Coordinates, label: String) -> URL {
        url(appleMapsBase, ["ll": text(point), "q": label])
    }

    /// Apple Maps with directions from where the device is to `point`, named `label`.
    public static func appleMapsDirections(to point: Coordinates, label: String) -> URL {
        url(appleMapsBase, ["daddr": text(point), "q": label])
    }

    /// OpenStreetMap centred on a marker at `point`.
    public static func openStreetMap(_ point: Coordinates) -> URL {
        var link = url(openStreetMapBase, ["mlat": "\(point.latitude)", "mlon": "\(point.longitude)"])
        if var components = URLComponents(url: link, resolvingAgainstBaseURL: false) {
            components.fragment = "map=16/" + text(point, separator: "/")
            link = components.url ?? link
        }
        return link
    }

    /// OpenStreetMap's route planner with `point`, named `label`, as the destination.
    public static func openStreetMapDirections(to point: Coordinates, label: String) -> URL {
        url(openStreetMapRouting, ["route": ";" + text(point), "to": label])
    }

    private static func text(_ point: Coordinates, separator: String = ",") -> String {
        "\(point.latitude)\(separator)\(point.longitude)"
    }

    // Fixed addresses: these literals are valid URLs, so the force unwraps cannot fail.
    private static let appleMapsBase = URL(string: "https://maps.apple.com/")!
    private static let openStreetMapBase = URL(string: "https://www.openstreetmap.org/")!
    private static let openStreetMapRouting = URL(string: "https://www.openstreetmap.org/directions")!

    /// `base` with the parameters in a fixed order (sorted by name), each percent-encoded.
    private static func url(_ base: URL, _ parameters: [String: String]) -> URL {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return base }
        components.queryItems = parameters.sorted { $0.key < $1.key }.map {
            URLQueryItem(name: $0.key, value: $0.value)
        }
        // URLComponents leaves `;` `,` and `+` as they are; encode them so every map reads the value whole.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: ";", with: "%3B")
        return components.url ?? base
    }
}
