import Foundation

/// Location tracking, decided once for devices and the server. Movement is measured from the
/// reminder's place, which stays where it was set: walking away in small steps adds up. A reading
/// is trusted only when its accuracy is good enough; one more than 5 m from the last reading sent
/// is sent (so the family sees where the person is, without a write for every jitter); one 20 m or
/// more from the place means the person left: the parents and the person are told at once and
/// tracking of that reminder stops.
public enum MovementRule {
    /// Readings less accurate than this (a larger radius, in metres) are ignored.
    public static let worstTrustedAccuracy = 20.0
    /// A trusted reading farther than this from the last reading sent is sent.
    public static let updateDistance = 5.0
    /// A trusted reading this far or farther from the place is a movement alert.
    public static let alertDistance = 20.0

    public enum Outcome: Sendable, Equatable {
        /// Not trusted (accuracy worse than `worstTrustedAccuracy`, or not a reading at all).
        case ignored
        /// Within 5 m of the last reading sent (or of the place, before any): nothing is written.
        /// `distance` is from the place.
        case unchanged(distance: Double)
        /// More than 5 m from the last reading sent, less than 20 m from the place: the reading is
        /// sent; the place stays. `distance` is from the place.
        case updated(distance: Double)
        /// 20 m or more from the place: alert and stop tracking. `distance` is from the place.
        case moved(distance: Double)
    }

    /// What a `reading` with `accuracy` (metres) means for a reminder set at `place` whose last
    /// reading sent was `lastSent` (nil before the first).
    public static func judge(_ reading: GeoPoint, accuracy: Double, place: GeoPoint, lastSent: GeoPoint? = nil) -> Outcome {
        guard accuracy.isFinite, accuracy >= 0, accuracy <= worstTrustedAccuracy else { return .ignored }
        let fromPlace = reading.distance(to: place)
        if fromPlace >= alertDistance { return .moved(distance: fromPlace) }
        if reading.distance(to: lastSent ?? place) > updateDistance { return .updated(distance: fromPlace) }
        return .unchanged(distance: fromPlace)
    }

    /// Whether a reading stated on a reminder is far enough from its place to be a movement: the
    /// server holds a device's `movedAt` to this.
    public static func isAway(_ reading: GeoPoint, from place: GeoPoint) -> Bool {
        reading.distance(to: place) >= alertDistance
    }
}
