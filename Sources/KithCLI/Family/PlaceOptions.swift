import ArgumentParser
import Foundation
import KithCore

/// `--lat LAT --lon LON [--accuracy M]`: a position as a phone's location service reports it, for
/// setting a reminder's place (`add`, `edit`) and for readings (`locate`).
struct PlaceOptions: ParsableArguments {
    // `.unconditional`, so a western or southern position (`--lon -0.1276`) is read as a value,
    // not as an option.
    @Option(parsing: .unconditional, help: "Latitude in degrees (WGS 84, -90 to 90).") var lat: Double?
    @Option(parsing: .unconditional, help: "Longitude in degrees (-180 to 180).") var lon: Double?
    @Option(help: "How accurate the position is: its radius in metres. Default 10.") var accuracy: Double?

    static let defaultAccuracy = 10.0

    var given: Bool { lat != nil || lon != nil || accuracy != nil }

    /// The accuracy given, else the default.
    var metres: Double { accuracy ?? Self.defaultAccuracy }

    func validate() throws {
        guard given else { return }
        _ = try requiredPoint()
        if let accuracy, !accuracy.isFinite || accuracy < 0 {
            throw ValidationError("--accuracy is a number of metres, 0 or more.")
        }
    }

    /// The position; nil when none was given.
    func point() throws -> GeoPoint? { given ? try requiredPoint() : nil }

    func requiredPoint() throws -> GeoPoint {
        guard let lat, let lon else { throw ValidationError("Give --lat and --lon together.") }
        guard let point = GeoPoint(latitude: lat, longitude: lon) else {
            throw ValidationError("--lat is -90 to 90 and --lon -180 to 180 (degrees).")
        }
        return point
    }
}
