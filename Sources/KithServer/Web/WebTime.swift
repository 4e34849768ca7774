import Foundation
import Hummingbird

/// Moments as every page writes them: "25 Nov 2026, 14:05", in the reader's time zone. The zone
/// is the browser's, which app.js keeps in the `kith_tz` cookie; before the server has seen it
/// the text is UTC and says so ("25 Nov 2026, 14:05 UTC"), and app.js rewrites each
/// `<time datetime>` in the browser's zone, in the same style (`KithTime` in app.js).
enum WebTime {
    /// The cookie app.js keeps the browser's IANA time zone in.
    static let zoneCookie = "kith_tz"

    /// The browser's zone and its name as the browser wrote it, or nil before it is known.
    static func readerZone(_ request: Request) -> (zone: TimeZone, name: String)? {
        guard let value = request.cookies[zoneCookie]?.value, let name = value.removingPercentEncoding,
            let zone = TimeZone(identifier: name)
        else { return nil }
        return (zone, name)
    }

    /// "25 Nov 2026, 14:05" in `zone`; in UTC with " UTC" after it when the zone is not known.
    static func text(_ moment: Date, in zone: TimeZone?) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone ?? .gmt
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: moment)
        let month = monthNames[(parts.month ?? 1) - 1]
        let clock = String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
        return "\(parts.day ?? 1) \(month) \(parts.year ?? 1970), \(clock)" + (zone == nil ? " UTC" : "")
    }

    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
}
