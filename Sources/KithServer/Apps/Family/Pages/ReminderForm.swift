import Foundation
import KithCore

/// The reminder form (new and edit) as typed: read from a submitted form or filled from a
/// reminder, turned into a `FamilyReminderInput` (or a refusal naming its field), and shown again.
/// Field names are the record's (`title`, `dueAt`, `assigneeId`, `repeatInterval`, `repeatStart`,
/// `repeatTime`), so a rule's refusal lands next to its field; the weekdays are `repeat.MO`…,
/// the checklist `checklist.N.text` with `checklist.N.id` for a line that exists, the place
/// `latitude`, `longitude` and `locationAccuracy` (metres).
struct ReminderForm {
    static let maximumLines = 50

    var title = ""
    var dueAt = ""
    var assigneeId = ""
    var days: Set<Weekday> = []
    var interval = "1"
    var start = ""
    var time = ""
    var lines: [FamilyReminderInput.Line] = []
    var latitude = ""
    var longitude = ""
    var accuracy = ""

    /// The form as typed.
    init(form: WebForm) { self.init(value: { form[$0] }) }

    /// The form `value` reads by field name (a form's own fields, or its `seen.…` ones).
    init(value: (String) -> String) {
        title = value(ReminderFields.title)
        dueAt = value(ReminderFields.dueAt)
        assigneeId = value(ReminderFields.assigneeId)
        days = Set(Weekday.allCases.filter { !value("repeat.\($0.code)").isEmpty })
        interval = value(ReminderFields.repeatInterval)
        start = value(ReminderFields.repeatStart)
        time = value(ReminderFields.repeatTime)
        latitude = value(ReminderFields.latitude)
        longitude = value(ReminderFields.longitude)
        accuracy = value(ReminderFields.locationAccuracy)
        lines = (0..<Self.maximumLines * 2).compactMap { index in
            let text = value("checklist.\(index).text")
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            return FamilyReminderInput.Line(id: UUID(text: value("checklist.\(index).id")), text: text)
        }
    }

    /// Every field of the form by name, as `init(value:)` reads them: what an edit form sends
    /// back as `seen.…` (the reminder as the page showed it).
    var fields: [(name: String, value: String)] {
        var fields = [
            (ReminderFields.title, title), (ReminderFields.dueAt, dueAt), (ReminderFields.assigneeId, assigneeId),
            (ReminderFields.repeatInterval, interval),
            (ReminderFields.repeatStart, start), (ReminderFields.repeatTime, time), (ReminderFields.latitude, latitude),
            (ReminderFields.longitude, longitude),
            (ReminderFields.locationAccuracy, accuracy),
        ]
        fields += Weekday.allCases.filter(days.contains).map { ("repeat.\($0.code)", "on") }
        for (index, line) in lines.enumerated() {
            fields.append(("checklist.\(index).text", line.text))
            if let id = line.id { fields.append(("checklist.\(index).id", id.lowercased)) }
        }
        return fields
    }

    /// A new reminder's form: for the reader, due tomorrow at 08:00, a weekly repeat from today
    /// offered (unticked days: it does not repeat until a day is chosen).
    init(newFor snapshot: FamilySnapshot, now: Date) {
        let today = LocalDate(now, in: snapshot.timeZone)
        assigneeId = snapshot.me
        dueAt = "\(today.adding(days: 1))T08:00"
        start = today.description
        time = "08:00"
    }

    /// The form filled from `reminder`.
    init(editing reminder: FamilyReminder, in snapshot: FamilySnapshot, now: Date) {
        self.init(newFor: snapshot, now: now)
        title = reminder.title
        dueAt = FamilyFormat.fieldValue(reminder.dueAt, in: snapshot.timeZone)
        assigneeId = reminder.assigneeId
        if let recurrence = snapshot.recurrences[reminder.id] {
            days = recurrence.weekdays
            interval = String(recurrence.interval)
            start = recurrence.start.description
            time = recurrence.time.description
        }
        lines = reminder.checklist.map { FamilyReminderInput.Line(id: $0.id, text: $0.text) }
        if let location = reminder.location {
            latitude = FamilyFormat.coordinate(location.point.latitude)
            longitude = FamilyFormat.coordinate(location.point.longitude)
            accuracy = location.accuracy > 0 ? FamilyFormat.metres(location.accuracy) : ""
        }
    }

    // MARK: Reading

    /// The repeat the form describes; nil when no weekday is ticked.
    func recurrence(in zone: TimeZone) throws -> WeeklyRecurrence? {
        guard !days.isEmpty else { return nil }
        guard let every = Int(interval.trimmingCharacters(in: .whitespaces)) else {
            throw Self.refusal("Repeat every 1 to 52 weeks.", field: ReminderFields.repeatInterval)
        }
        guard let from = LocalDate(start.trimmingCharacters(in: .whitespaces)) else {
            throw Self.refusal("Choose the day the repeat starts.", field: ReminderFields.repeatStart)
        }
        guard let at = LocalTime(String(time.trimmingCharacters(in: .whitespaces).prefix(5))) else {
            throw Self.refusal("Choose the time of day, such as 07:30.", field: ReminderFields.repeatTime)
        }
        switch WeeklyRecurrence.make(weekdays: days, interval: every, start: from, time: at, timeZone: zone) {
        case .success(let recurrence): return recurrence
        case .failure(let problem):
            throw Self.refusal(
                problem.message,
                field: problem.field == "interval" ? ReminderFields.repeatInterval : ReminderFields.repeatDays)
        }
    }

    func draft(in zone: TimeZone) throws -> FamilyReminderInput {
        let recurrence = try recurrence(in: zone)
        var due: Date?
        if recurrence == nil {
            guard let parsed = FamilyFormat.parseField(dueAt, in: zone) else {
                throw Self.refusal("Choose the day and time it is due.", field: ReminderFields.dueAt)
            }
            due = parsed
        }
        return FamilyReminderInput(
            title: title, dueAt: due, assigneeId: assigneeId, recurrence: recurrence, checklist: lines,
            place: try place())
    }

    /// The place typed (or filled by "Use my location"); nil when all three fields are empty.
    /// A decimal comma is read as a point.
    func place() throws -> FamilyReminderInput.Place? {
        func number(_ text: String) -> Double? { DecimalText.parse(text) }
        let typed = [latitude, longitude, accuracy].map { $0.trimmingCharacters(in: .whitespaces) }
        guard typed.contains(where: { !$0.isEmpty }) else { return nil }
        guard let north = number(latitude), GeoPoint.latitudes.contains(north) else {
            throw Self.refusal(
                "Latitude is a number from -90 to 90, such as 52.520008.", field: ReminderFields.latitude)
        }
        guard let east = number(longitude), let point = GeoPoint(latitude: north, longitude: east) else {
            throw Self.refusal(
                "Longitude is a number from -180 to 180, such as 13.404954.", field: ReminderFields.longitude)
        }
        guard typed[2].isEmpty || number(accuracy).map({ (0...100_000).contains($0) }) == true else {
            throw Self.refusal(
                "Accuracy is in metres, from 0 to 100,000, or left empty.", field: ReminderFields.locationAccuracy)
        }
        return FamilyReminderInput.Place(point: point, accuracy: typed[2].isEmpty ? 0 : number(accuracy) ?? 0)
    }

    static func refusal(_ message: String, field: String) -> AppError {
        AppError.validation(APIErrorDetail(.validationFailed, message, field: field))
    }

    // MARK: Showing

    /// The page: what was typed, the members the reader may assign, the weekdays, the checklist
    /// rows (what was typed, then empty ones), the next occurrences and `error` next to its field
    /// (one the form does not show goes above it).
    func model(
        _ purpose: ReminderFormModel.Purpose, _ snapshot: FamilySnapshot, occurrences: [Date], today: LocalDate,
        seen: ReminderForm? = nil, error: AppError? = nil
    ) -> ReminderFormModel {
        var fieldErrors = ReminderFormModel.Errors()
        var lineErrors: [Int: String] = [:]
        var general: String?
        if let error {
            let field = error.detail.field.map {
                $0 == "weekdays" ? ReminderFields.repeatDays : $0 == "interval" ? ReminderFields.repeatInterval : $0
            }
            if let field, let shown = ReminderFormModel.Errors.fields[field] {
                fieldErrors[keyPath: shown] = error.detail.message
            } else if let field, field.hasPrefix("checklist."), let index = Int(field.dropFirst("checklist.".count)) {
                lineErrors[index] = error.detail.message
            } else {
                general = error.detail.message
            }
        }
        var rows = lines
        rows.append(FamilyReminderInput.Line(id: nil, text: ""))
        while rows.count < 3 { rows.append(FamilyReminderInput.Line(id: nil, text: "")) }
        return ReminderFormModel(
            purpose, zone: snapshot.family.timeZone,
            form: .init(
                title: title, dueAt: dueAt, repeatInterval: interval, repeatStart: start, repeatTime: time,
                repeats: !days.isEmpty, latitude: latitude, longitude: longitude, locationAccuracy: accuracy),
            members: snapshot.assignable.map { member in
                .init(
                    id: member.userId.lowercased(), name: member.displayName, role: member.role.rawValue,
                    selected: member.userId.lowercased() == assigneeId.lowercased())
            },
            onlyMe: !snapshot.isParent,
            weekdays: Weekday.allCases.map { day in
                .init(code: day.code, name: FamilyFormat.dayNames[day.rawValue], checked: days.contains(day))
            },
            lines: rows.prefix(Self.maximumLines).enumerated().map { index, line in
                .init(
                    index: index, number: index + 1, text: line.text, id: line.id?.lowercased,
                    problem: lineErrors[index])
            },
            occurrences: occurrences.map { FamilyFormat.moment($0, in: snapshot.timeZone, today: today) },
            seen: (seen?.fields ?? []).map { .init(name: WebForm.seenPrefix + $0.name, value: $0.value) },
            errors: fieldErrors, error: general)
    }
}
