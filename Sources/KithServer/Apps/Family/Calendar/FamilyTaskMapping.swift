import Foundation
import KithCore

/// A family reminder as a VTODO, and a VTODO a member wrote as what it asks of the reminder.
///
/// | reminder | VTODO |
/// |---|---|
/// | title | SUMMARY |
/// | due time, in the family's zone | DUE;TZID=<zone> (and DTSTART, the same, when it repeats), with the zone's VTIMEZONE |
/// | repeat | RRULE:FREQ=DAILY;INTERVAL=n, FREQ=WEEKLY;INTERVAL=n;BYDAY=…;WKST=MO, FREQ=MONTHLY;INTERVAL=n;BYMONTHDAY=15 or BYDAY=2TU |
/// | checklist | DESCRIPTION, a line per item: `[ ] milk`, `[x] bread` |
/// | pending, completed | STATUS:NEEDS-ACTION, STATUS:COMPLETED with COMPLETED |
/// | the family's notices | VALARMs 3, 2 and 1 minutes before the due time and at it |
///
/// The checklist is the description rather than related sub-tasks: every task app shows a
/// description, while sub-tasks are shown by few (Apple's Reminders keeps its own over CalDAV
/// and sends none), and a description edited on the phone still reads back as the checklist.
enum FamilyTaskMapping {
    /// The alarms every reminder carries, as seconds before its due time: the family's notices.
    static let alarms: [TimeInterval] = [-180, -120, -60, 0]
    /// A task due on a day, with no time: at this hour of the family's day.
    static let dayOnlyHour = 9

    /// The reminder as a whole calendar object: the VTODO and the family zone's VTIMEZONE.
    static func calendar(
        _ reminder: FamilyReminder, uid: String, recurrence: Recurrence?, zone: TimeZone, extras: [ContentLine]
    ) -> String {
        let due = CalendarTime.local(reminder.dueAt, in: zone)
        let checklist = reminder.checklist.sorted { $0.position < $1.position }
        let task = CalendarTask(
            uid: uid, summary: reminder.title,
            description: checklist.isEmpty
                ? nil : ChecklistText.write(checklist.map { ChecklistText.Item($0.text, done: $0.done) }),
            due: due, start: recurrence == nil ? nil : due, recurrence: recurrence.map(RecurrenceRule.init),
            status: reminder.status == .completed ? .completed : .needsAction,
            completed: reminder.status == .completed ? reminder.completedAt : nil, alarms: alarms,
            dtstamp: reminder.dueAt, unknown: extras)
        return CalendarDocument.write(
            tasks: [task], timeZone: zone, from: reminder.dueAt.addingTimeInterval(-366 * 86_400),
            to: reminder.dueAt.addingTimeInterval(5 * 366 * 86_400))
    }

    /// The one task a client's body holds; 400 for anything Kith cannot read, 403 for what a
    /// family calendar does not hold (events, several tasks).
    static func task(in body: [UInt8], precondition: XMLName) throws(DAVError) -> CalendarTask {
        guard let text = String(bytes: body, encoding: .utf8) else {
            throw DAVError(.badRequest, "The calendar object is not UTF-8 text.", precondition: precondition)
        }
        let document: CalendarDocument
        do {
            document = try CalendarDocument.parse(text)
        } catch {
            throw DAVError(
                .badRequest, "The calendar object could not be read: \(error.message)", precondition: precondition)
        }
        guard document.otherComponents.isEmpty else {
            throw DAVError.forbidden(
                "This calendar holds the family's reminders, as tasks; events cannot be kept here.",
                precondition: DAVName.supportedCalendarComponent)
        }
        guard document.tasks.count == 1, let task = document.tasks.first else {
            throw DAVError(
                .badRequest, "Send one task per calendar object (this one holds \(document.tasks.count)).",
                precondition: precondition)
        }
        return task
    }

    /// What `task` asks of the reminder `current` (nil: a new one for `assignee`): 403 with a
    /// sentence for what a reminder cannot be (no due time, a repeat Kith cannot count).
    static func state(
        of task: CalendarTask, current: FamilyReminder?, recurrence stored: Recurrence?, assignee: String,
        zone: TimeZone, now: Date
    ) throws(DAVError) -> FamilyTaskState {
        let title = task.summary.trimmedWhitespace
        guard !title.isEmpty else { throw DAVError.forbidden("A reminder needs a title; give the task one.") }
        guard let time = task.due ?? task.start else {
            throw DAVError.forbidden("A reminder needs a due date and time; give the task one.")
        }
        let due = dueDate(time, zone: zone)
        var recurrence: Recurrence?
        if let rule = task.recurrence {
            guard let made = rule.recurrence(first: due, in: zone) else {
                throw DAVError.forbidden(
                    "Family reminders repeat every 1 to 365 days, every 1 to 52 weeks on chosen weekdays, or every 1 to 12 months on a day or a weekday's place (the second Tuesday); this repeat (\(rule.raw)) cannot be kept."
                )
            }
            // The same repeat, sent back with the occurrence it is at: the stored one, so the
            // weeks it counts from do not move.
            if let stored, stored.pattern == made.pattern, stored.interval == made.interval,
                stored.time == made.time, stored.occurs(on: made.start)
            {
                recurrence = stored
            } else {
                recurrence = made
            }
        }
        var unused = current?.checklist.sorted { $0.position < $1.position } ?? []
        var lines: [FamilyReminderInput.Line] = []
        var ticked: [Bool] = []
        for item in ChecklistText.parse(task.description ?? "") {
            if let index = unused.firstIndex(where: { $0.text.trimmedWhitespace == item.text }) {
                lines.append(FamilyReminderInput.Line(id: unused[index].id, text: item.text))
                unused.remove(at: index)
            } else {
                lines.append(FamilyReminderInput.Line(text: item.text))
            }
            ticked.append(item.done)
        }
        var input = FamilyReminderInput(
            title: title, dueAt: due, assigneeId: current?.assigneeId ?? assignee, recurrence: recurrence,
            checklist: lines)
        if let current { input.place = FamilyReminderInput(current, recurrence: stored).place }
        return FamilyTaskState(input: input, ticked: ticked, completed: task.status == .completed)
    }

    /// A due time as an instant: a day alone is at `dayOnlyHour` of the family's day, a floating
    /// time is read on the family's clock.
    private static func dueDate(_ time: CalendarTime, zone: TimeZone) -> Date {
        if time.isDateOnly {
            let day = time.localDate
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return calendar.date(
                from: DateComponents(year: day.year, month: day.month, day: day.day, hour: dayOnlyHour)) ?? time.date
        }
        if time.isFloating {
            let offset = TimeInterval(zone.secondsFromGMT(for: time.date))
            return time.date.addingTimeInterval(-offset)
        }
        return time.date
    }

    /// What Kith keeps of a client's task verbatim: the properties it has no field for, a parent
    /// task, and the alarms it cannot express.
    static func extras(of task: CalendarTask) -> [ContentLine] {
        var lines = task.unknown
        if let parent = task.relatedTo { lines.append(ContentLine(name: "RELATED-TO", value: parent)) }
        for alarm in task.unknownAlarms { lines += (try? ContentLines.parse(alarm)) ?? [] }
        return lines
    }
}
