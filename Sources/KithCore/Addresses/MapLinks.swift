import Foundation

/// Links that open a map app at an address, or ask it for directions there, with the contact's name
/// as the place's label. Apple Maps links open the Maps app on Apple devices and a web map
/// elsewhere; OpenStreetMap links work in any browser.
public enum MapLinks {
    /// Apple Maps showing a pin named `label` at `point`.
    public static func appleMaps(_ point: Coordinates, label: String) -> URL {
        url("https://maps.apple.com/", ["ll": text(point), "q": label])
    }

    /// Apple Maps with directions from where the device is to `point`, named `label`.
    public static func appleMapsDirections(to point: Coordinates, label: String) -> URL {
        url("https://maps.apple.com/", ["daddr": text(point), "q": label])
    }

    /// OpenStreetMap centred on a marker at `point`.
    public static func openStreetMap(_ point: Coordinates) -> URL {
        let at = text(point, separator: "/")
        return URL(
            string: "https://www.openstreetmap.org/?mlat=\(point.latitude)&mlon=\(point.longitude)#map=16/\(at)")!
    }

    /// OpenStreetMap's route planner with `point`, named `label`, as the destination.
    public static func openStreetMapDirections(to point: Coordinates, label: String) -> URL {
        url("https://www.openstreetmap.org/directions", ["route": ";" + text(point), "to": label])
    }

    private static func text(_ point: Coordinates, separator: String = ",") -> String {
        "\(point.latitude)\(separator)\(point.longitude)"
    }

    /// `base` with the parameters in a fixed order (sorted by name), each percent-encoded.
    private static func url(_ base: String, _ parameters: [String: String]) -> URL {
        var components = URLComponents(string: base)!
        components.queryItems = parameters.sorted { $0.key < $1.key }.map {
            URLQueryItem(name: $0.key, value: $0.value)
        }
        // URLComponents leaves `;` `,` and `+` as they are; encode them so every map reads the value whole.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: ";", with: "%3B")
        return components.url!
    }
}
