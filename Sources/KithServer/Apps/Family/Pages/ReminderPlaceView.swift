import Foundation
import KithCore

/// A reminder's place as its page shows it: the coordinates, a link to OpenStreetMap, and the
/// values of a drawn sketch (a pin on a grid with its accuracy to scale). The sketch is no map:
/// pages load nothing from another site (the CSP), so the link is the way to the real one.
enum ReminderPlaceView {
    /// The sketch is 240 × 120 units with a grid line every 20, one square being 10 m.
    static let unitsPerMetre = 2.0
    static let gridLines = (x: Array(stride(from: 20, to: 240, by: 20)), y: Array(stride(from: 20, to: 120, by: 20)))

    static func values(_ location: ReminderLocation, movedAt: Date?, in zone: TimeZone, today: LocalDate)
        -> [String: Any]
    {
        let latitude = FamilyFormat.coordinate(location.point.latitude)
        let longitude = FamilyFormat.coordinate(location.point.longitude)
        var values: [String: Any] = [
            "latitude": latitude, "longitude": longitude,
            "osm": "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=18/\(latitude)/\(longitude)",
            "gridX": gridLines.x, "gridY": gridLines.y,
        ]
        if location.accuracy > 0 {
            values["accuracy"] = "within \(FamilyFormat.metres(location.accuracy)) m"
            // Past the sketch's edge the circle would say nothing more; it stops at the frame.
            values["accuracyRadius"] = FamilyFormat.metres(min(location.accuracy * unitsPerMetre, 110))
        }
        if let movedAt {
            values["movedAway"] = "Moved away at \(FamilyFormat.timeAndDay(movedAt, in: zone, today: today))"
        }
        return values
    }
}
