import Foundation

/// Reads a VTODO component into a `CalendarTask` and writes one back.
enum CalendarTaskCodec {
    static func read(
        _ component: CardComponent, lines: [NumberedLine], zone: (String) -> TimeZone?
    ) throws(CardFormatError) -> CalendarTask {
        var task = CalendarTask(uid: "")
        var seen = Set<String>()
        for numbered in component.properties {
            let line = numbered.line
            if !seen.contains(line.name), try read(line, number: numbered.number, into: &task, zone: zone) {
                seen.insert(line.name)
                continue
            }
            task.unknown.append(line)
        }
        for child in component.children {
            if child.name == "VALARM", let offset = alarmOffset(child, in: task) {
                task.alarms.append(offset)
            } else {
                task.unknownAlarms.append(child.verbatim(in: lines))
            }
        }
        return task
    }

    /// Whether the property was read into a field (else it stays in `unknown`). Each field takes
    /// the first line of its name it can read (a RELATED-TO;RELTYPE=CHILD before the parent's
    /// stays unknown).
    private static func read(
        _ line: ContentLine, number: Int, into task: inout CalendarTask, zone: (String) -> TimeZone?
    ) throws(CardFormatError) -> Bool {
        let text = ContentLines.unescapeText(line.value)
        func time() throws(CardFormatError) -> CalendarTime {
            guard let time = try CalendarTime.read(line, number: number, zone: zone) else {
                throw CardFormatError(
                    line: number,
                    message: "Line \(number)'s \(line.name) is \"\(line.value.prefix(40))\", which is not a date "
                        + "(20240315) or a date and time (20240315T090000, 20240315T080000Z).")
            }
            return time
        }
        func instant() -> Date? { (try? CalendarTime.read(line, number: number, zone: zone))??.date }
        switch line.name {
        case "UID": task.uid = text
        case "SUMMARY": task.summary = text
        case "DESCRIPTION": task.description = text
        case "DUE": task.due = try time()
        case "DTSTART": task.start = try time()
        case "RRULE": task.recurrence = RecurrenceRule(raw: line.value)
        case "STATUS":
            task.status =
                CalendarTask.Status(rawValue: text.trimmingCharacters(in: .whitespaces).uppercased()) ?? .needsAction
        case "PERCENT-COMPLETE":
            guard let percent = Int(text.trimmingCharacters(in: .whitespaces)) else { return false }
            task.percentComplete = percent
        case "SEQUENCE":
            guard let sequence = Int(text.trimmingCharacters(in: .whitespaces)) else { return false }
            task.sequence = sequence
        case "RELATED-TO":
            guard line.parameter("RELTYPE").allSatisfy({ $0.uppercased() == "PARENT" }) else { return false }
            task.relatedTo = text
        case "COMPLETED", "CREATED", "LAST-MODIFIED", "DTSTAMP":
            guard let date = instant() else { return false }
            switch line.name {
            case "COMPLETED": task.completed = date
            case "CREATED": task.created = date
            case "LAST-MODIFIED": task.lastModified = date
            default: task.dtstamp = date
            }
        default: return false
        }
        return true
    }

    /// Properties a display alarm may carry and still be one of `alarms` (ids are dropped).
    private static let alarmProperties: Set<String> = [
        "ACTION", "TRIGGER", "DESCRIPTION", "SUMMARY", "UID", "X-WR-ALARMUID", "X-EVOLUTION-ALARM-UID",
    ]

    /// The alarm as seconds from DUE, or nil when `alarms` cannot say it.
    static func alarmOffset(_ alarm: CardComponent, in task: CalendarTask) -> TimeInterval? {
        let properties = alarm.properties.map(\.line)
        guard alarm.children.isEmpty, properties.allSatisfy({ alarmProperties.contains($0.name) }),
            properties.filter({ $0.name == "ACTION" }).map({ $0.value.uppercased() }) == ["DISPLAY"]
        else { return nil }
        let triggers = properties.filter { $0.name == "TRIGGER" }
        guard triggers.count == 1, let trigger = triggers.first,
            trigger.parameter("VALUE").allSatisfy({ $0.uppercased() == "DURATION" }),
            let offset = CalendarDuration.parse(trigger.value)
        else { return nil }
        let related = trigger.parameter("RELATED").first?.uppercased() ?? "START"
        guard let due = task.due else { return nil }
        switch related {
        case "END": return offset
        case "START":
            guard let start = task.start else { return offset }
            return offset + start.date.timeIntervalSince(due.date)
        default: return nil
        }
    }

    static func write(_ task: CalendarTask) -> String {
        var lines = [
            ContentLine(name: "BEGIN", value: "VTODO"),
            ContentLine(name: "UID", value: ContentLines.escapeText(task.uid)),
        ]
        func stamp(_ name: String, _ date: Date?) {
            if let date { lines.append(CalendarTime.utc(date).line(name)) }
        }
        stamp("DTSTAMP", task.dtstamp)
        stamp("CREATED", task.created)
        stamp("LAST-MODIFIED", task.lastModified)
        if let sequence = task.sequence { lines.append(ContentLine(name: "SEQUENCE", value: "\(sequence)")) }
        lines.append(ContentLine(name: "SUMMARY", value: ContentLines.escapeText(task.summary)))
        if let description = task.description {
            lines.append(ContentLine(name: "DESCRIPTION", value: ContentLines.escapeText(description)))
        }
        if let start = task.start { lines.append(start.line("DTSTART")) }
        if let due = task.due { lines.append(due.line("DUE")) }
        if let recurrence = task.recurrence { lines.append(ContentLine(name: "RRULE", value: recurrence.raw)) }
        lines.append(ContentLine(name: "STATUS", value: task.status.rawValue))
        stamp("COMPLETED", task.completed)
        if let percent = task.percentComplete {
            lines.append(ContentLine(name: "PERCENT-COMPLETE", value: "\(percent)"))
        }
        if let parent = task.relatedTo {
            lines.append(ContentLine(name: "RELATED-TO", value: ContentLines.escapeText(parent)))
        }
        lines += task.unknown
        for offset in task.alarms {
            lines += [
                ContentLine(name: "BEGIN", value: "VALARM"), ContentLine(name: "ACTION", value: "DISPLAY"),
                ContentLine(name: "DESCRIPTION", value: ContentLines.escapeText(task.summary)),
                ContentLine(
                    name: "TRIGGER", parameters: [ContentLine.Parameter(name: "RELATED", values: ["END"])],
                    value: CalendarDuration.text(offset)),
                ContentLine(name: "END", value: "VALARM"),
            ]
        }
        var text = ContentLines.write(lines)
        for alarm in task.unknownAlarms {
            text += alarm
            if !alarm.hasSuffix("\r\n") { text += "\r\n" }
        }
        return text + "END:VTODO\r\n"
    }
}
