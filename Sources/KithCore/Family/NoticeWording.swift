import Foundation

/// A notice's words keep the moments they mention as moments (`{time:1795583999611}`), and each
/// reader sees them as a time of day on their own clock: the server stores the notice once for a
/// family whose members may be in different zones, and the inbox, the web pages, the live socket
/// and the command line write it for whoever reads it.
public enum NoticeWording {
    /// The stand-in for `moment` in a notice's stored words, read as a time of day ("07:30").
    public static func time(_ moment: Date) -> String { "{time:\(moment.epochMillis)}" }

    /// The stand-in for `moment` read with its weekday ("Wed 07:30"), for a moment on another day.
    public static func day(_ moment: Date) -> String { "{day:\(moment.epochMillis)}" }

    /// `wording` with each moment written as "HH:mm" (or "Wed HH:mm") in `zone`; with no zone
    /// known, in UTC and saying so ("07:30 UTC"). Words without a moment come back as they are.
    public static func render(_ wording: String, in zone: TimeZone?) -> String {
        guard wording.contains("{") else { return wording }
        var result = ""
        var rest = Substring(wording)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let inside = rest[rest.index(after: open)...]
            guard let close = inside.firstIndex(of: "}"), let colon = inside[..<close].firstIndex(of: ":"),
                let millis = Int64(inside[inside.index(after: colon)..<close]),
                ["time", "day"].contains(inside[..<colon])
            else {
                result += "{"
                rest = inside
                continue
            }
            result += clock(Date(epochMillis: millis), in: zone, withDay: inside[..<colon] == "day")
            rest = inside[inside.index(after: close)...]
        }
        return result + rest
    }

    /// "07:30" (or "Wed 07:30") on `zone`'s clock, with " UTC" without one. Arithmetic on the
    /// zone's offset at that moment rather than a formatter per notice: the runner writes
    /// thousands a second.
    static func clock(_ moment: Date, in zone: TimeZone?, withDay: Bool = false) -> String {
        let offset = zone?.secondsFromGMT(for: moment) ?? 0
        let seconds = Int64(moment.timeIntervalSince1970.rounded(.down)) + Int64(offset)
        let ofDay = ((seconds % 86_400) + 86_400) % 86_400
        let hour = ofDay / 3600
        let minute = ofDay % 3600 / 60
        var text = (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
        if withDay {
            // 1 January 1970 was a Thursday.
            let days = (seconds - ofDay) / 86_400
            text = weekdays[Int(((days + 3) % 7 + 7) % 7)] + " " + text
        }
        return zone == nil ? text + " UTC" : text
    }

    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
}

extension NoticeDTO {
    /// The notice with its words written for a reader on `zone`'s clock (from `wording`; a notice
    /// stored before words kept their moments is returned as it is).
    public func rendered(in zone: TimeZone) -> NoticeDTO {
        guard let wording else { return self }
        var copy = self
        copy.title = NoticeWording.render(wording.title, in: zone)
        copy.body = NoticeWording.render(wording.body, in: zone)
        return copy
    }
}
