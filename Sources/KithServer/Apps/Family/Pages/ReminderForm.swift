import Foundation
import KithCore

/// The reminder form (new and edit) as typed: read from a submitted form or filled from a
/// reminder, turned into a `FamilyReminderInput` (or a refusal naming its field), and shown again.
/// Field names are the record's (`title`, `dueAt`, `assigneeId`, `repeatFrequency`, `repeatInterval`,
/// `repeatStart`, `repeatTime`, `repeatMonthDay`), so a rule's refusal lands next to its field;
/// `repeatFrequency` is also `never`, the weekdays are `repeat.MO`…, a monthly repeat is on a day
/// (`repeatMonthly=day`) or on a weekday's place (`repeatMonthly=weekday`, `repeatOrdinal` 1-5 or
/// -1, `repeatWeekday` MO…),
/// the checklist `checklist.N.text` with `checklist.N.id` for a line that exists, the place
/// `latitude`, `longitude` and `locationAccuracy` (metres).
struct ReminderForm {
    static let maximumLines = 50
    static let monthlyField = "repeatMonthly"
    static let ordinalField = "repeatOrdinal"
    static let weekdayField = "repeatWeekday"
    static let placeField = "where"

    var title = ""
    var dueAt = ""
    var assigneeId = ""
    /// "never", "daily", "weekly" or "monthly"; empty in a form from before the choice existed,
    /// which repeats weekly when a day is ticked.
    var frequency = ""
    var days: Set<Weekday> = []
    /// A monthly repeat's kind: "day" (`monthDay`) or "weekday" (`ordinal` and `weekday`).
    var monthly = "day"
    var monthDay = ""
    var ordinal = "1"
    var weekday = ""
    var interval = "1"
    var start = ""
    var time = ""
    var lines: [FamilyReminderInput.Line] = []
    /// "anywhere" or "place": whether the reminder happens at a place (its fields then say where);
    /// empty in a form from before the choice existed, where typed numbers are the place.
    var placeChoice = ""
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
        frequency = value(ReminderFields.repeatFrequency)
        days = Set(Weekday.allCases.filter { !value("repeat.\($0.code)").isEmpty })
        monthly = value(Self.monthlyField)
        monthDay = value(ReminderFields.repeatMonthDay)
        ordinal = value(Self.ordinalField)
        weekday = value(Self.weekdayField)
        interval = value(ReminderFields.repeatInterval)
        start = value(ReminderFields.repeatStart)
        time = value(ReminderFields.repeatTime)
        placeChoice = value(Self.placeField)
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
            (ReminderFields.repeatFrequency, frequency), (ReminderFields.repeatInterval, interval),
            (Self.monthlyField, monthly), (ReminderFields.repeatMonthDay, monthDay), (Self.ordinalField, ordinal),
            (Self.weekdayField, weekday),
            (ReminderFields.repeatStart, start), (ReminderFields.repeatTime, time), (Self.placeField, placeChoice),
            (ReminderFields.latitude, latitude),
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

    /// A new reminder's form: for the reader, due tomorrow at 08:00, not repeating; a repeat from
    /// today at 08:00 offered, monthly on today's day or today's weekday's place in the month.
    init(newFor snapshot: FamilySnapshot, now: Date) {
        let today = LocalDate(now, in: snapshot.timeZone)
        assigneeId = snapshot.me
        dueAt = "\(today.adding(days: 1))T08:00"
        frequency = "never"
        placeChoice = "anywhere"
        start = today.description
        time = "08:00"
        monthDay = String(today.day)
        let length = LocalDate.daysIn(month: today.month, year: today.year)
        ordinal = today.day + 7 > length ? "-1" : String((today.day - 1) / 7 + 1)
        weekday = Weekday(today).code
    }

    /// The form filled from `reminder`.
    init(editing reminder: FamilyReminder, in snapshot: FamilySnapshot, now: Date) {
        self.init(newFor: snapshot, now: now)
        title = reminder.title
        dueAt = FamilyFormat.fieldValue(reminder.dueAt, in: snapshot.timeZone)
        assigneeId = reminder.assigneeId
        if let recurrence = snapshot.recurrences[reminder.id] {
            frequency = recurrence.frequency.rawValue
            switch recurrence.pattern {
            case .daily: break
            case .weekly(let weekdays): days = weekdays
            case .monthlyOnDay(let day):
                monthly = "day"
                monthDay = String(day)
            case .monthlyOnWeekday(let place):
                monthly = "weekday"
                ordinal = String(place.ordinal)
                weekday = place.weekday.code
            }
            interval = String(recurrence.interval)
            start = recurrence.start.description
            time = recurrence.time.description
        }
        lines = reminder.checklist.map { FamilyReminderInput.Line(id: $0.id, text: $0.text) }
        placeChoice = reminder.location == nil ? "anywhere" : "place"
        if let location = reminder.location {
            latitude = FamilyFormat.coordinate(location.point.latitude)
            longitude = FamilyFormat.coordinate(location.point.longitude)
            accuracy = location.accuracy > 0 ? FamilyFormat.metres(location.accuracy) : ""
        }
    }

    // MARK: Reading

    /// The frequency chosen; nil for none. A form without the choice (sent before it existed)
    /// repeats weekly when a day is ticked.
    var chosenFrequency: RepeatFrequency? {
        if frequency.isEmpty && !days.isEmpty { return .weekly }
        return RepeatFrequency(rawValue: frequency)
    }

    /// The repeat the form describes; nil when it does not repeat.
    func recurrence(in zone: TimeZone) throws -> Recurrence? {
        guard let chosen = chosenFrequency else {
            if ["", "never"].contains(frequency) { return nil }
            throw Self.refusal("Choose never, daily, weekly or monthly.", field: ReminderFields.repeatFrequency)
        }
        let range = chosen.intervals
        guard let every = Int(interval.trimmingCharacters(in: .whitespaces)) else {
            throw Self.refusal(
                "Repeat every \(range.lowerBound) to \(range.upperBound) \(chosen.unit)s.",
                field: ReminderFields.repeatInterval)
        }
        guard let from = LocalDate(start.trimmingCharacters(in: .whitespaces)) else {
            throw Self.refusal("Choose the day the repeat starts.", field: ReminderFields.repeatStart)
        }
        guard let at = LocalTime(String(time.trimmingCharacters(in: .whitespaces).prefix(5))) else {
            throw Self.refusal("Choose the time of day, such as 07:30.", field: ReminderFields.repeatTime)
        }
        switch Recurrence.make(try pattern(chosen), interval: every, start: from, time: at, timeZone: zone) {
        case .success(let recurrence): return recurrence
        case .failure(let problem):
            let named = FamilyRules.onReminderFields(problem)
            throw Self.refusal(named.message, field: named.field ?? ReminderFields.repeatFrequency)
        }
    }

    /// The days `frequency` repeats on, as the form's fields for it say.
    private func pattern(_ frequency: RepeatFrequency) throws -> RepeatPattern {
        switch frequency {
        case .daily: return .daily
        case .weekly: return .weekly(days)
        case .monthly where monthly == "weekday":
            guard let day = Weekday(name: weekday), let number = Int(ordinal),
                let place = MonthlyWeekday(ordinal: number, weekday: day)
            else {
                throw Self.refusal(
                    "Choose which weekday of the month: first to fifth, or last.",
                    field: ReminderFields.repeatMonthWeekday)
            }
            return .monthlyOnWeekday(place)
        case .monthly:
            guard let day = Int(monthDay.trimmingCharacters(in: .whitespaces)) else {
                throw Self.refusal("Choose a day of the month from 1 to 31.", field: ReminderFields.repeatMonthDay)
            }
            return .monthlyOnDay(day)
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

    /// Whether the form says the reminder happens at a place: chosen, or (a form from before the
    /// choice) a number typed in its fields.
    var usesPlace: Bool {
        switch placeChoice {
        case "anywhere": false
        case "place": true
        default: [latitude, longitude, accuracy].contains { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        }
    }

    /// The place typed (or filled by "Use my location"); nil when the reminder happens anywhere
    /// (whatever its hidden fields still hold). A decimal comma is read as a point.
    func place() throws -> FamilyReminderInput.Place? {
        func number(_ text: String) -> Double? { DecimalText.parse(text) }
        let typed = [latitude, longitude, accuracy].map { $0.trimmingCharacters(in: .whitespaces) }
        guard usesPlace else { return nil }
        guard typed.contains(where: { !$0.isEmpty }) else {
            throw Self.refusal(
                "Type the place's latitude and longitude, or use your location; or choose Anywhere.",
                field: ReminderFields.latitude)
        }
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
        seen: ReminderForm? = nil, detailsLocked: Bool = false, error: AppError? = nil
    ) -> ReminderFormModel {
        var fieldErrors = ReminderFormModel.Errors()
        var lineErrors: [Int: String] = [:]
        var general: String?
        if let error {
            let field = error.detail.field
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
                repeatMonthDay: monthDay, repeats: chosenFrequency != nil, latitude: latitude, longitude: longitude,
                locationAccuracy: accuracy),
            repeatChoice: .init(self),
            usesPlace: usesPlace, detailsLocked: detailsLocked,
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
