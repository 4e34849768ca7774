import Foundation

/// A VTIMEZONE (RFC 5545 §3.6.5) for a Foundation zone, computed from its own rules: TZID is the
/// zone's id, and each change of offset between `from` and `to` is a STANDARD or DAYLIGHT
/// observance with its onset (DTSTART, the wall time before the change), TZOFFSETFROM,
/// TZOFFSETTO and TZNAME. The observance already in effect at `from` is included, so a time at
/// `from` reads right; a zone with no change in the window gets one STANDARD.
public enum VTimeZoneWriter {
    /// The most observances written (two a year for 250 years).
    static let maxObservances = 500

    public static func component(for zone: TimeZone, from: Date, to: Date) -> String {
        var lines = [ContentLine(name: "BEGIN", value: "VTIMEZONE"), ContentLine(name: "TZID", value: zone.identifier)]
        // Changes from a year before `from`: the last one at or before `from` is the onset of the
        // observance in effect then.
        var changes: [Date] = []
        var cursor = from.addingTimeInterval(-366 * 86_400)
        while changes.count < maxObservances, let next = zone.nextDaylightSavingTimeTransition(after: cursor),
            next <= to
        {
            changes.append(next)
            cursor = next
        }
        if let lastBefore = changes.lastIndex(where: { $0 <= from }) { changes.removeFirst(lastBefore) }
        if changes.isEmpty || changes[0] > from {
            let offset = zone.secondsFromGMT(for: from)
            lines += observance(
                daylight: !changes.isEmpty && zone.isDaylightSavingTime(for: from), onset: "19700101T000000",
                from: offset, to: offset, name: zone.abbreviation(for: from))
        }
        for change in changes {
            let before = zone.secondsFromGMT(for: change.addingTimeInterval(-1))
            let after = zone.secondsFromGMT(for: change)
            let onset = WallTime(utc: change.addingTimeInterval(TimeInterval(before))).dateTimeText
            lines += observance(
                daylight: zone.isDaylightSavingTime(for: change), onset: onset, from: before, to: after,
                name: zone.abbreviation(for: change))
        }
        lines.append(ContentLine(name: "END", value: "VTIMEZONE"))
        return ContentLines.write(lines)
    }

    private static func observance(daylight: Bool, onset: String, from: Int, to: Int, name: String?) -> [ContentLine] {
        let kind = daylight ? "DAYLIGHT" : "STANDARD"
        var lines = [
            ContentLine(name: "BEGIN", value: kind), ContentLine(name: "DTSTART", value: onset),
            ContentLine(name: "TZOFFSETFROM", value: CalendarTimeZones.offsetText(from)),
            ContentLine(name: "TZOFFSETTO", value: CalendarTimeZones.offsetText(to)),
        ]
        if let name, !name.isEmpty { lines.append(ContentLine(name: "TZNAME", value: ContentLines.escapeText(name))) }
        lines.append(ContentLine(name: "END", value: kind))
        return lines
    }
}
