import Foundation
import KithCore

/// A reminder's place as its page shows it: the coordinates, a link to OpenStreetMap, and a drawn
/// sketch (a pin on a grid with its accuracy to scale). The sketch is no map: pages load nothing
/// from another site (the CSP), so the link is the way to the real one.
struct ReminderPlace {
    /// The sketch is 240 × 120 units with a grid line every 20, one square being 10 m.
    static let unitsPerMetre = 2.0
    static let gridLines = (x: Array(stride(from: 20, to: 240, by: 20)), y: Array(stride(from: 20, to: 120, by: 20)))

    let latitude: String
    let longitude: String
    let osm: String
    let gridX = Self.gridLines.x
    let gridY = Self.gridLines.y
    /// "within 12 m", when the accuracy is known.
    let accuracy: String?
    /// The accuracy circle's radius in the sketch's units.
    let accuracyRadius: String?
    let movedAway: String?

    init(_ location: ReminderLocation, movedAt: Date?, in zone: TimeZone, today: LocalDate) {
        latitude = FamilyFormat.coordinate(location.point.latitude)
        longitude = FamilyFormat.coordinate(location.point.longitude)
        osm = "https://www.openstreetmap.org/?mlat=\(latitude)&mlon=\(longitude)#map=18/\(latitude)/\(longitude)"
        let known = location.accuracy > 0
        accuracy = known ? "within \(FamilyFormat.metres(location.accuracy)) m" : nil
        // Past the sketch's edge the circle would say nothing more; it stops at the frame.
        accuracyRadius = known ? FamilyFormat.metres(min(location.accuracy * Self.unitsPerMetre, 110)) : nil
        movedAway = movedAt.map { "Moved away at \(FamilyFormat.timeAndDay($0, in: zone, today: today))" }
    }
}
