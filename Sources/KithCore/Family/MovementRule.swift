import Foundation

/// Seed 003's location tracking, decided once for devices and the server: a reading is trusted
/// only when its accuracy is good enough; one more than 5 m from the stored location moves it;
/// one more than 20 m away means the person left: the parents are told at once and tracking of
/// that reminder stops.
public enum MovementRule {
    /// Readings less accurate than this (a larger radius, in metres) are ignored.
    public static let worstTrustedAccuracy = 20.0
    /// A trusted reading farther than this from the stored location replaces it.
    public static let updateDistance = 5.0
    /// A trusted reading farther than this from the stored location is a movement alert.
    public static let alertDistance = 20.0

    public enum Outcome: Sendable, Equatable {
        /// Not trusted (accuracy worse than `worstTrustedAccuracy`, or not a reading at all).
        case ignored
        /// Within 5 m: nothing changes.
        case unchanged(distance: Double)
        /// Between 5 and 20 m: the stored location becomes the reading.
        case updated(distance: Double)
        /// Beyond 20 m: alert the parents and stop tracking.
        case moved(distance: Double)
    }

    /// What a `reading` with `accuracy` (metres) means against the `stored` location.
    public static func judge(_ reading: GeoPoint, accuracy: Double, against stored: GeoPoint) -> Outcome {
        guard accuracy.isFinite, accuracy >= 0, accuracy <= worstTrustedAccuracy else { return .ignored }
        let distance = reading.distance(to: stored)
        if distance > alertDistance { return .moved(distance: distance) }
        if distance > updateDistance { return .updated(distance: distance) }
        return .unchanged(distance: distance)
    }
}
