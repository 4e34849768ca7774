import Foundation

/// An iCalendar object (BEGIN:VCALENDAR … END:VCALENDAR, RFC 5545) as a CalDAV task list holds it:
/// its to-dos, any other component kept as text (a caller that takes only tasks refuses those),
/// and the zones its VTIMEZONEs describe. The calendar's own properties (PRODID, METHOD,
/// X-WR-CALNAME) are not kept: a collection's name is a CalDAV property, not part of a task.
public struct CalendarDocument: Sendable, Equatable {
    public var tasks: [CalendarTask]
    /// VEVENT, VJOURNAL… each as component text (CRLF, folded).
    public var otherComponents: [String]
    /// TZID → zone, from the VTIMEZONE blocks: the IANA zone when the TZID (or a Thunderbird
    /// "/mozilla.org/…/Europe/Berlin" path, or an Outlook Windows name) names one, else a fixed
    /// offset from the block's STANDARD TZOFFSETTO.
    public var timeZones: [String: TimeZone]

    public init(tasks: [CalendarTask] = [], otherComponents: [String] = [], timeZones: [String: TimeZone] = [:]) {
        self.tasks = tasks
        self.otherComponents = otherComponents
        self.timeZones = timeZones
    }

    /// Reads one or more VCALENDARs. A DUE or DTSTART with TZID=X is read in the zone of the
    /// VTIMEZONE for X, else in the zone X names; a TZID neither resolves is a CardFormatError.
    public static func parse(_ text: String) throws(CardFormatError) -> CalendarDocument {
        let lines = try ContentLines.parseNumbered(text)
        guard lines.contains(where: { $0.line.name == "BEGIN" }) else {
            throw CardFormatError(
                line: nil,
                message: "The text has no BEGIN:VCALENDAR: it is not an iCalendar object (a calendar file starts "
                    + "with BEGIN:VCALENDAR).")
        }
        let components = try ContentLines.components(lines) { stray in
            CardFormatError(
                line: stray.number,
                message:
                    "Line \(stray.number) is outside BEGIN:VCALENDAR … END:VCALENDAR: every line of a calendar goes "
                    + "between the two.")
        }
        var document = CalendarDocument()
        for calendar in components {
            guard calendar.name == "VCALENDAR" else {
                throw CardFormatError(
                    line: calendar.beginLine,
                    message: "Line \(calendar.beginLine) begins \(calendar.name) where a calendar (BEGIN:VCALENDAR) "
                        + "was expected.")
            }
            for child in calendar.children where child.name == "VTIMEZONE" {
                if let (tzid, zone) = CalendarTimeZones.zone(of: child) { document.timeZones[tzid] = zone }
            }
        }
        let zones = document.timeZones
        let resolve: (String) -> TimeZone? = { tzid in zones[tzid] ?? CalendarTimeZones.resolve(tzid) }
        for calendar in components {
            for child in calendar.children {
                switch child.name {
                case "VTIMEZONE": continue
                case "VTODO": document.tasks.append(try CalendarTaskCodec.read(child, lines: lines, zone: resolve))
                default: document.otherComponents.append(child.verbatim(in: lines))
                }
            }
        }
        return document
    }

    /// A VCALENDAR (VERSION:2.0, PRODID:-//Kith//Kith//EN) with a VTIMEZONE for `timeZone` and for
    /// every other zone a task's DUE or DTSTART is in, covering `from` to `to`, then the VTODOs.
    public static func write(tasks: [CalendarTask], timeZone: TimeZone?, from: Date, to: Date) -> String {
        var zones: [TimeZone] = timeZone.map { [$0] } ?? []
        for task in tasks {
            for zone in [task.start?.timeZone, task.due?.timeZone].compactMap({ $0 })
            where !zones.contains(where: { $0.identifier == zone.identifier }) {
                zones.append(zone)
            }
        }
        var text = ContentLines.write([
            ContentLine(name: "BEGIN", value: "VCALENDAR"), ContentLine(name: "VERSION", value: "2.0"),
            ContentLine(name: "PRODID", value: "-//Kith//Kith//EN"), ContentLine(name: "CALSCALE", value: "GREGORIAN"),
        ])
        for zone in zones { text += VTimeZoneWriter.component(for: zone, from: from, to: to) }
        for task in tasks { text += task.component() }
        return text + "END:VCALENDAR\r\n"
    }
}
