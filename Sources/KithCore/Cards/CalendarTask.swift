import Foundation

/// A to-do as CalDAV carries it (an RFC 5545 VTODO): what Kith's family reminders hold, and every
/// other property and alarm kept as it came, so a task another app wrote keeps its sort order,
/// priority, categories and alarms when Kith writes it back.
public struct CalendarTask: Sendable, Equatable {
    public enum Status: String, Sendable {
        case needsAction = "NEEDS-ACTION", inProcess = "IN-PROCESS", completed = "COMPLETED", cancelled = "CANCELLED"
    }

    public var uid: String
    public var summary: String
    public var description: String?
    public var due: CalendarTime?
    /// DTSTART.
    public var start: CalendarTime?
    /// RRULE.
    public var recurrence: RecurrenceRule?
    /// NEEDS-ACTION when the task says none (or a value RFC 5545 does not define for a VTODO).
    public var status: Status
    /// COMPLETED (UTC).
    public var completed: Date?
    public var percentComplete: Int?
    /// Display alarms, as seconds from DUE: -180 is three minutes before, 0 at the time. Written as
    /// VALARM ACTION:DISPLAY, TRIGGER;RELATED=END (RFC 5545 §3.8.6.3: a relative trigger is
    /// relative to DTSTART unless RELATED=END, which for a VTODO is DUE) and DESCRIPTION = the
    /// summary. On read, a trigger relative to DTSTART is moved to DUE when the task has both, and
    /// one in a task with no DTSTART is taken as relative to DUE (as Apple Reminders and Tasks.org
    /// mean it).
    public var alarms: [TimeInterval]
    /// RELATED-TO (RELTYPE=PARENT, the default): the parent task's UID.
    public var relatedTo: String?
    public var sequence: Int?
    public var created: Date?
    public var lastModified: Date?
    public var dtstamp: Date?
    /// Every other VTODO property, verbatim and in order (X-APPLE-SORT-ORDER, CATEGORIES, PRIORITY,
    /// CLASS, a second RELATED-TO…).
    public var unknown: [ContentLine]
    /// Alarms `alarms` cannot say (an absolute TRIGGER, an EMAIL or AUDIO action, an acknowledged
    /// or snoozed alarm) and any other component inside the VTODO, each as component text
    /// (BEGIN:VALARM … END:VALARM, CRLF), written back as it is.
    public var unknownAlarms: [String]

    public init(
        uid: String, summary: String = "", description: String? = nil, due: CalendarTime? = nil,
        start: CalendarTime? = nil, recurrence: RecurrenceRule? = nil, status: Status = .needsAction,
        completed: Date? = nil, percentComplete: Int? = nil, alarms: [TimeInterval] = [], relatedTo: String? = nil,
        sequence: Int? = nil, created: Date? = nil, lastModified: Date? = nil, dtstamp: Date? = nil,
        unknown: [ContentLine] = [], unknownAlarms: [String] = []
    ) {
        self.uid = uid
        self.summary = summary
        self.description = description
        self.due = due
        self.start = start
        self.recurrence = recurrence
        self.status = status
        self.completed = completed
        self.percentComplete = percentComplete
        self.alarms = alarms
        self.relatedTo = relatedTo
        self.sequence = sequence
        self.created = created
        self.lastModified = lastModified
        self.dtstamp = dtstamp
        self.unknown = unknown
        self.unknownAlarms = unknownAlarms
    }

    /// The task as a VTODO component (BEGIN:VTODO … END:VTODO, CRLF, folded). Its TZIDs need
    /// their VTIMEZONEs beside it: `CalendarDocument.write` adds them.
    public func component() -> String { CalendarTaskCodec.write(self) }
}

/// RFC 5545 DURATION values (§3.3.6): "-PT15M", "PT0S", "P1DT2H", "P2W".
enum CalendarDuration {
    static func parse(_ text: String) -> TimeInterval? {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        var sign: Double = 1
        if rest.first == "-" || rest.first == "+" {
            if rest.first == "-" { sign = -1 }
            rest = rest.dropFirst()
        }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0
        var number = ""
        var inTime = false
        var sawUnit = false
        for character in rest {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            if character == "T", number.isEmpty, !inTime {
                inTime = true
                continue
            }
            guard let value = Int(number), value <= 100_000_000 else { return nil }
            switch (character, inTime) {
            case ("W", false): total += value * 604_800
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return sign * Double(total)
    }

    static func text(_ interval: TimeInterval) -> String {
        let seconds = Int(interval.rounded())
        guard seconds != 0 else { return "PT0S" }
        var rest = abs(seconds)
        var text = seconds < 0 ? "-P" : "P"
        if rest >= 86_400 {
            text += "\(rest / 86_400)D"
            rest %= 86_400
        }
        if rest > 0 {
            text += "T"
            if rest >= 3600 { text += "\(rest / 3600)H" }
            if rest % 3600 >= 60 { text += "\(rest % 3600 / 60)M" }
            if rest % 60 > 0 { text += "\(rest % 60)S" }
        }
        return text
    }
}
