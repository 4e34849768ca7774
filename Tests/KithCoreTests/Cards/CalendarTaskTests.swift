import Foundation
import KithCore
import Testing

@Suite("iCalendar: CalendarTask and CalendarDocument")
struct CalendarTaskTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let newYork = TimeZone(identifier: "America/New_York")!

    /// "2024-03-15T08:00:00Z" as a Date.
    static func instant(_ text: String) -> Date {
        let parts = text.split { "-T:Z".contains($0) }.compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        return calendar.date(
            from: DateComponents(
                year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4], second: parts[5]))!
    }

    // MARK: - Real-world tasks

    @Test func iOSReminder() throws {
        let document = try CalendarDocument.parse(try DAVFixtures.text("ios-reminder.ics"))
        let task = try #require(document.tasks.first)
        #expect(document.tasks.count == 1 && document.otherComponents.isEmpty)
        #expect(document.timeZones["Europe/Berlin"]?.identifier == "Europe/Berlin")
        #expect(task.uid == "5B3C2F1E-7A6D-4C3B-9E1F-2D4A6B8C0E12")
        #expect(task.summary == "Einkaufen")
        #expect(
            ChecklistText.parse(task.description ?? "") == [
                ChecklistText.Item("milk"), ChecklistText.Item("bread", done: true), ChecklistText.Item("Eier"),
            ])
        #expect(task.due == CalendarTime(date: Self.instant("2024-03-15T08:00:00Z"), timeZone: Self.berlin))
        #expect(task.start == task.due)
        #expect(task.status == .completed && task.percentComplete == 100 && task.sequence == 1)
        #expect(task.completed == Self.instant("2024-03-15T08:12:00Z"))
        #expect(task.created == Self.instant("2024-03-10T08:15:02Z"))
        #expect(task.alarms == [-900], "TRIGGER:-PT15M from DTSTART, which is the due time")
        #expect(task.unknownAlarms.count == 1)
        #expect(task.unknownAlarms.first?.contains("TRIGGER;VALUE=DATE-TIME:20240315T080000Z\r\n") == true)
        #expect(task.unknown.map(\.name) == ["PRIORITY", "X-APPLE-SORT-ORDER"])
        try expectWriteKeepsEverything(document)
    }

    @Test func thunderbirdTask() throws {
        let document = try CalendarDocument.parse(try DAVFixtures.text("thunderbird-todo.ics"))
        let task = try #require(document.tasks.first)
        #expect(task.uid == "todo" && task.summary == "Todo")
        #expect(
            task.start
                == CalendarTime(
                    date: Self.instant("2013-09-01T20:00:00Z"), timeZone: TimeZone(identifier: "Europe/Paris")))
        #expect(task.due == nil && task.status == .needsAction)
        #expect(task.unknown == [ContentLine(name: "DURATION", value: "PT1H")])
        try expectWriteKeepsEverything(document)
    }

    @Test func davx5TaskWithMostFields() throws {
        let task = try #require(
            try CalendarDocument.parse(try DAVFixtures.text("davx5-todo-most-fields.ics")).tasks.first)
        #expect(task.uid == "most-fields1@example.com" && task.sequence == 1)
        #expect(
            task.description
                == "Meeting to provide technical review for \"Phoenix\" design.\nHappy Face Conference Room. Phoenix design team MUST attend this meeting.\nRSVP to team leader."
        )
        #expect(task.status == .inProcess && task.percentComplete == 25)
        #expect(task.start == .day(LocalDate(year: 2010, month: 1, day: 1)!))
        #expect(task.due == .day(LocalDate(year: 2010, month: 10, day: 1)!))
        #expect(task.recurrence == RecurrenceRule(raw: "FREQ=YEARLY;INTERVAL=2"))
        #expect(task.recurrence?.frequency == "YEARLY" && task.recurrence?.interval == 2)
        #expect(task.recurrence?.pattern(startingOn: nil) == nil)
        #expect(
            task.created == Self.instant("1996-03-29T13:30:00Z")
                && task.lastModified == Self.instant("1996-08-17T13:30:00Z"))
        #expect(
            task.unknown.map(\.name) == [
                "LOCATION", "GEO", "URL", "ORGANIZER", "PRIORITY", "CLASS", "CATEGORIES", "EXDATE", "EXDATE", "RDATE",
                "RDATE",
                "X-UNKNOWN-PROP",
            ])
        #expect(task.unknown[0].parameter("ALTREP") == ["http://xyzcorp.com/conf-rooms/f123.vcf"])
        try expectWriteKeepsEverything(try CalendarDocument.parse(try DAVFixtures.text("davx5-todo-most-fields.ics")))
    }

    @Test func tasksOrgSubtask() throws {
        let task = try #require(try CalendarDocument.parse(try DAVFixtures.text("tasks-org-subtask.ics")).tasks.first)
        #expect(task.summary == "Buy paint" && task.description == "White, matt, 5 l")
        #expect(task.relatedTo == "9999999")
        #expect(task.due == .day(LocalDate(year: 2024, month: 3, day: 9)!))
        #expect(task.due?.isFloating == true && task.due?.isDateOnly == true)
        #expect(task.alarms == [0, -86_400])
        #expect(task.dtstamp == Self.instant("2024-03-03T18:22:18Z"))
        #expect(task.unknown.map(\.name) == ["CATEGORIES", "PRIORITY", "X-APPLE-SORT-ORDER"])
        try expectWriteKeepsEverything(try CalendarDocument.parse(try DAVFixtures.text("tasks-org-subtask.ics")))
    }

    @Test func weeklyTaskFromNextcloud() throws {
        let document = try CalendarDocument.parse(try DAVFixtures.text("nextcloud-weekly-todo.ics"))
        let task = try #require(document.tasks.first)
        #expect(task.start == CalendarTime(date: Self.instant("2024-01-09T00:00:00Z"), timeZone: Self.newYork))
        #expect(task.due == CalendarTime(date: Self.instant("2024-01-09T00:30:00Z"), timeZone: Self.newYork))
        let weekly = try #require(task.recurrence?.pattern(startingOn: nil))
        #expect(weekly.pattern == .weekly([.monday, .thursday]) && weekly.interval == 1)
        #expect(task.alarms == [-2_400], "ten minutes before the start is forty before the due time")
        #expect(task.unknown.map(\.name) == ["X-OC-HIDESUBTASKS"])
        try expectWriteKeepsEverything(document)
    }

    // MARK: - Time zones

    @Test func thunderbirdStyleAndWindowsZoneNamesResolve() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VTIMEZONE
            TZID:/mozilla.org/20050126_1/Europe/Berlin
            BEGIN:STANDARD
            DTSTART:19701025T030000
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VTIMEZONE
            TZID:Custom Office Time
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0530
            TZOFFSETTO:+0530
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VTODO
            UID:a
            DUE;TZID=/mozilla.org/20050126_1/Europe/Berlin:20240701T090000
            END:VTODO
            BEGIN:VTODO
            UID:b
            DUE;TZID=W. Europe Standard Time:20240701T090000
            END:VTODO
            BEGIN:VTODO
            UID:c
            DUE;TZID=Custom Office Time:20240701T090000
            END:VTODO
            BEGIN:VEVENT
            UID:e
            SUMMARY:Not a task
            END:VEVENT
            END:VCALENDAR
            """
        let document = try CalendarDocument.parse(text)
        #expect(document.timeZones["/mozilla.org/20050126_1/Europe/Berlin"]?.identifier == "Europe/Berlin")
        #expect(document.timeZones["Custom Office Time"]?.secondsFromGMT() == 19_800)
        #expect(
            document.tasks.map { $0.due?.date } == [
                Self.instant("2024-07-01T07:00:00Z"), Self.instant("2024-07-01T07:00:00Z"),
                Self.instant("2024-07-01T03:30:00Z"),
            ])
        #expect(document.tasks[1].due?.timeZone?.identifier == "Europe/Berlin")
        #expect(document.otherComponents == ["BEGIN:VEVENT\r\nUID:e\r\nSUMMARY:Not a task\r\nEND:VEVENT\r\n"])
        // Written back, the fixed-offset zone still reads as the same instants.
        let again = try CalendarDocument.parse(
            CalendarDocument.write(
                tasks: document.tasks, timeZone: nil, from: Self.instant("2024-01-01T00:00:00Z"),
                to: Self.instant("2025-01-01T00:00:00Z")))
        #expect(again.tasks == document.tasks)
    }

    @Test func anUnknownZoneIsRefusedWithASentence() {
        let text =
            "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nDUE;TZID=Mars/Olympus:20240701T090000\nEND:VTODO\nEND:VCALENDAR"
        let error = #expect(throws: CardFormatError.self) { try CalendarDocument.parse(text) }
        #expect(error?.line == 4)
        #expect(
            error?.message
                == "Line 4's DUE is in the time zone \"Mars/Olympus\", which the calendar does not describe (no VTIMEZONE with that TZID) and Kith does not know."
        )
    }

    @Test func badCalendarsAreRefusedWithASentence() {
        let cases: [(String, Int?, String)] = [
            ("UID:a\nSUMMARY:x", nil, "The text has no BEGIN:VCALENDAR"),
            ("BEGIN:VTODO\nEND:VTODO", 1, "Line 1 begins VTODO where a calendar"),
            ("BEGIN:VCALENDAR\nBEGIN:VTODO\nDUE:tomorrow\nEND:VTODO\nEND:VCALENDAR", 3, "Line 3's DUE is \"tomorrow\""),
            ("BEGIN:VCALENDAR\nBEGIN:VTODO\nEND:VCALENDAR", 3, "Line 3 ends VCALENDAR, but VTODO"),
            ("BEGIN:VCALENDAR\nEND:VCALENDAR\nEND:VCALENDAR", 3, "Line 3 has END:VCALENDAR with no BEGIN"),
            (
                String(repeating: "BEGIN:VCALENDAR\n", count: 50), 11,
                "Line 11 opens BEGIN:VCALENDAR nested more than 10"
            ),
        ]
        for (text, line, start) in cases {
            let error = #expect(throws: CardFormatError.self) { try CalendarDocument.parse(text) }
            #expect(error?.line == line, "\(text)")
            #expect(error?.message.hasPrefix(start) == true, "\(error?.message ?? "")")
        }
    }

    // MARK: - Alarms and rules

    @Test func alarmsAreWrittenRelativeToDue() throws {
        let task = CalendarTask(
            uid: "r1", summary: "Pills, then water", due: .utc(Self.instant("2024-05-01T08:00:00Z")),
            alarms: [-180, -120, -60, 0])
        let component = task.component()
        #expect(
            component.contains(
                "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Pills\\, then water\r\nTRIGGER;RELATED=END:-PT3M\r\nEND:VALARM\r\n"
            ))
        #expect(component.contains("TRIGGER;RELATED=END:PT0S\r\n"))
        #expect(component.hasPrefix("BEGIN:VTODO\r\nUID:r1\r\n") && component.hasSuffix("END:VTODO\r\n"))
    }

    @Test func alarmsKithCannotSayAreKept() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VTODO
            UID:a
            DTSTART:20240501T070000Z
            BEGIN:VALARM
            ACTION:EMAIL
            TRIGGER:-PT5M
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT5M
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            ACKNOWLEDGED:20240501T070000Z
            END:VALARM
            END:VTODO
            END:VCALENDAR
            """
        let task = try #require(try CalendarDocument.parse(text).tasks.first)
        #expect(task.alarms.isEmpty, "relative to DTSTART with no DUE, an email, an acknowledged alarm")
        #expect(task.unknownAlarms.count == 3)
        #expect(task.unknownAlarms[0] == "BEGIN:VALARM\r\nACTION:EMAIL\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n")
    }

    @Test func theParentIsTheRelatedToWithoutAnotherRelation() throws {
        let text =
            "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nRELATED-TO;RELTYPE=CHILD:kid\nRELATED-TO:mum\nEND:VTODO\nEND:VCALENDAR"
        let task = try #require(try CalendarDocument.parse(text).tasks.first)
        #expect(task.relatedTo == "mum")
        #expect(
            task.unknown == [
                ContentLine(name: "RELATED-TO", parameters: [.init(name: "RELTYPE", values: ["CHILD"])], value: "kid")
            ])
    }

    @Test func durations() {
        let cases: [(String, TimeInterval)] = [
            ("PT0S", 0), ("-PT3M", -180), ("-PT1H30M", -5_400), ("-P1D", -86_400), ("P1DT2H3M4S", 93_784),
            ("-P2W", -1_209_600),
        ]
        for (text, seconds) in cases {
            #expect(
                CalendarTask(uid: "x", due: .utc(Date(timeIntervalSince1970: 0)), alarms: [seconds]).component()
                    .contains("TRIGGER;RELATED=END:"))
            let parsed = try? CalendarDocument.parse(
                "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:x\nDUE:20240101T000000Z\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER;RELATED=END:\(text)\nEND:VALARM\nEND:VTODO\nEND:VCALENDAR"
            )
            #expect(parsed?.tasks.first?.alarms == [seconds], "\(text)")
        }
    }

    /// Which RRULEs Kith keeps as a reminder's repeat, and as what; nil for those it cannot count.
    @Test func rulesKithRepeats() throws {
        let tuesday = try #require(LocalDate("2026-12-15"))
        struct Read: Equatable {
            let pattern: RepeatPattern
            let every: Int
        }
        func read(_ raw: String, start: LocalDate? = nil) -> Read? {
            RecurrenceRule(raw: raw).pattern(startingOn: start).map { Read(pattern: $0.pattern, every: $0.interval) }
        }
        func weekly(_ days: Set<Weekday>, _ interval: Int) -> Read { Read(pattern: .weekly(days), every: interval) }
        #expect(read("FREQ=WEEKLY;BYDAY=MO,WE") == weekly([.monday, .wednesday], 1))
        #expect(read("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;WKST=MO") == weekly([.friday], 2))
        #expect(read("FREQ=WEEKLY", start: tuesday) == weekly([.tuesday], 1))
        #expect(read("FREQ=WEEKLY") == nil, "no BYDAY and no start weekday")
        #expect(read("FREQ=WEEKLY;BYDAY=MO;COUNT=4") == nil)
        #expect(read("FREQ=WEEKLY;INTERVAL=53;BYDAY=MO") == nil)
        #expect(read("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;WKST=SU") == nil)
        #expect(read("FREQ=WEEKLY;BYDAY=2TU") == nil)
        #expect(read("FREQ=DAILY") == Read(pattern: RepeatPattern.daily, every: 1))
        #expect(read("FREQ=DAILY;INTERVAL=365;WKST=MO") == Read(pattern: RepeatPattern.daily, every: 365))
        #expect(read("FREQ=DAILY;INTERVAL=366") == nil && read("FREQ=DAILY;BYDAY=MO") == nil)
        #expect(read("FREQ=DAILY;UNTIL=20270101T000000Z") == nil && read("FREQ=DAILY;INTERVAL=x") == nil)
        let secondTuesday = RepeatPattern.monthlyOnWeekday(try #require(MonthlyWeekday(code: "2TU")))
        let lastFriday = RepeatPattern.monthlyOnWeekday(try #require(MonthlyWeekday(code: "-1FR")))
        #expect(read("FREQ=MONTHLY;BYDAY=2TU") == Read(pattern: secondTuesday, every: 1))
        #expect(read("FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR") == Read(pattern: lastFriday, every: 3))
        #expect(
            read("FREQ=MONTHLY;BYDAY=FR;BYSETPOS=-1") == Read(pattern: lastFriday, every: 1), "as Apple's apps write it"
        )
        #expect(read("FREQ=MONTHLY;BYMONTHDAY=31") == Read(pattern: RepeatPattern.monthlyOnDay(31), every: 1))
        #expect(
            read("FREQ=MONTHLY;INTERVAL=2", start: tuesday) == Read(pattern: RepeatPattern.monthlyOnDay(15), every: 2))
        #expect(read("FREQ=MONTHLY") == nil, "no day and no start")
        for unsupported in [
            "FREQ=MONTHLY;BYMONTHDAY=1,15", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=MO,TU",
            "FREQ=MONTHLY;BYDAY=TU", "FREQ=MONTHLY;BYDAY=2TU;BYMONTHDAY=8", "FREQ=MONTHLY;BYDAY=6TU",
            "FREQ=MONTHLY;BYDAY=TU;BYSETPOS=1,2", "FREQ=MONTHLY;INTERVAL=13;BYMONTHDAY=1",
            "FREQ=MONTHLY;BYMONTHDAY=1;COUNT=3", "FREQ=YEARLY", "FREQ=HOURLY", "",
        ] {
            #expect(read(unsupported, start: tuesday) == nil, "\(unsupported)")
        }
        #expect(
            RecurrenceRule(frequency: "weekly", interval: 3, byDay: ["MO", "FR"]).raw
                == "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR")
        // Kith's own rules read back as what they were made of.
        for pattern in [RepeatPattern.weekly([.sunday, .monday]), .daily, .monthlyOnDay(31), secondTuesday] {
            let kith = try Recurrence.make(
                pattern, interval: 2, start: LocalDate(year: 2024, month: 1, day: 1)!,
                time: LocalTime(hour: 8, minute: 0)!, timeZone: Self.berlin
            ).get()
            let back = try #require(RecurrenceRule(kith).pattern(startingOn: nil))
            #expect(back.pattern == pattern && back.interval == 2)
        }
    }

    // MARK: - Round trip over generated tasks

    @Test func writingThenReadingGivesTheSameTasks() throws {
        var generator = SeededGenerator(state: 5_545)
        let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata"].compactMap(
            TimeZone.init(identifier:))
        let from = Self.instant("2023-01-01T00:00:00Z")
        let to = Self.instant("2027-01-01T00:00:00Z")
        func seconds() -> Date {
            Date(timeIntervalSince1970: TimeInterval(Int.random(in: 1_672_531_200...1_798_761_600, using: &generator)))
        }
        func time() -> CalendarTime? {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: return .utc(seconds())
            case 1: return .local(seconds(), in: zones[Int.random(in: 0..<zones.count, using: &generator)])
            case 2: return .day(LocalDate(seconds(), in: Self.utc))
            case 3: return CalendarTime(date: seconds(), isFloating: true)
            default: return nil
            }
        }
        var tasks: [CalendarTask] = []
        for index in 0..<120 {
            var task = CalendarTask(uid: "task-\(index)@kith")
            task.summary = CardGenerator.text(&generator)
            task.description = CardGenerator.optionalText(&generator)
            task.due = time()
            task.start = Bool.random(using: &generator) ? time() : nil
            task.recurrence =
                [
                    nil, RecurrenceRule(raw: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO"),
                    RecurrenceRule(raw: "FREQ=MONTHLY;BYSETPOS=-1;BYDAY=FR"),
                ][Int.random(in: 0..<3, using: &generator)]
            task.status = [.needsAction, .inProcess, .completed, .cancelled][Int.random(in: 0..<4, using: &generator)]
            task.completed = task.status == .completed ? seconds() : nil
            task.percentComplete = Bool.random(using: &generator) ? Int.random(in: 0...100, using: &generator) : nil
            if task.due != nil {
                task.alarms = Array([-180, -120, -60, 0, -86_400].prefix(Int.random(in: 0...5, using: &generator)))
            }
            task.relatedTo = Bool.random(using: &generator) ? "parent-\(index)" : nil
            task.sequence = Bool.random(using: &generator) ? index : nil
            task.created = seconds()
            task.lastModified = Bool.random(using: &generator) ? seconds() : nil
            task.dtstamp = seconds()
            if Bool.random(using: &generator) {
                task.unknown = [
                    ContentLine(name: "X-APPLE-SORT-ORDER", value: "732345600"),
                    ContentLine(name: "CATEGORIES", value: "Home,Kids\\, big"),
                    ContentLine(
                        name: "X-WEIRD", parameters: [.init(name: "X-Q", values: ["a:b", "c^d\"e"])],
                        value: "raw\\;value"),
                ]
                task.unknownAlarms = [
                    "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:20240315T080000Z\r\nEND:VALARM\r\n"
                ]
            }
            tasks.append(task)
        }
        let written = CalendarDocument.write(tasks: tasks, timeZone: Self.berlin, from: from, to: to)
        let read = try CalendarDocument.parse(written)
        #expect(read.tasks.count == tasks.count)
        for (again, task) in zip(read.tasks, tasks) { #expect(again == task) }
        #expect(
            read.timeZones.keys.sorted() == ["America/New_York", "Asia/Kolkata", "Australia/Sydney", "Europe/Berlin"])
        for physical in written.components(separatedBy: "\r\n") { #expect(physical.utf8.count <= 75) }
    }

    /// Written back (in the zone of its first task, or UTC) and read again, every task is equal.
    private func expectWriteKeepsEverything(_ document: CalendarDocument) throws {
        let zone = document.tasks.first?.due?.timeZone ?? document.tasks.first?.start?.timeZone
        let written = CalendarDocument.write(
            tasks: document.tasks, timeZone: zone, from: Self.instant("2010-01-01T00:00:00Z"),
            to: Self.instant("2030-01-01T00:00:00Z"))
        let again = try CalendarDocument.parse(written)
        #expect(again.tasks == document.tasks)
    }
}
