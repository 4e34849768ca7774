import Foundation

/// A reminder's repeat read from its fields (`FamilyEntities.reminder`), the same on the server and
/// on devices: a record without `repeatFrequency` is weekly (as every repeat was before daily and
/// monthly ones), and each frequency has exactly the fields it needs, so a record no rule can
/// read is refused rather than repeated some other way. A client that predates daily and monthly
/// repeats reads one as a repeat without its days, which its own rules refuse to change: told,
/// not silently wrong (docs/decisions.md).
extension FamilyRules {
    /// The recurrence the fields describe; nil when they describe none; a problem, naming the
    /// field, when they are partial or invalid.
    public static func recurrence(_ fields: [String: JSONTree], timeZone: TimeZone) -> Result<
        Recurrence?, APIErrorDetail
    > {
        // Not `flatMap { … ? nil : $0 }`: `nil` there is JSONTree's own null literal.
        func given(_ name: String) -> JSONTree? {
            guard let value = fields[name], value != .null else { return nil }
            return value
        }
        guard repeatFields.contains(where: { given($0) != nil }) else { return .success(nil) }
        let frequency: RepeatFrequency
        if let named = given(ReminderFields.repeatFrequency) {
            guard let known = named.stringValue.flatMap(RepeatFrequency.init(rawValue:)) else {
                return .failure(
                    refuse(
                        .validationFailed, "repeatFrequency is daily, weekly or monthly.",
                        field: ReminderFields.repeatFrequency))
            }
            frequency = known
        } else {
            frequency = .weekly
        }
        let needed = [ReminderFields.repeatInterval, ReminderFields.repeatStart, ReminderFields.repeatTime]
        if let missing = needed.first(where: { given($0) == nil }) {
            let what = frequency == .weekly ? "days, interval, start date and time" : "interval, start date and time"
            return .failure(
                refuse(
                    .validationFailed, "A repeat needs its \(what).",
                    field: frequency == .weekly ? ReminderFields.repeatDays : missing))
        }
        guard let start = given(ReminderFields.repeatStart)?.stringValue.flatMap(LocalDate.init) else {
            return .failure(
                refuse(.validationFailed, "repeatStart is a day as yyyy-MM-dd.", field: ReminderFields.repeatStart))
        }
        guard let time = given(ReminderFields.repeatTime)?.stringValue.flatMap(LocalTime.init) else {
            return .failure(
                refuse(.validationFailed, "repeatTime is a time of day as HH:mm.", field: ReminderFields.repeatTime))
        }
        let pattern: RepeatPattern
        switch patternOf(frequency, given) {
        case .failure(let problem): return .failure(problem)
        case .success(let found): pattern = found
        }
        let interval = Int(given(ReminderFields.repeatInterval)?.intValue ?? 0)
        return Recurrence.make(pattern, interval: interval, start: start, time: time, timeZone: timeZone)
            .map { $0 }
            .mapError(onReminderFields)
    }

    /// `Recurrence.make`'s refusal with its field named as a reminder names it (`interval` is
    /// `repeatInterval`, …), so a form or an app shows it next to the right field.
    public static func onReminderFields(_ problem: APIErrorDetail) -> APIErrorDetail {
        let field =
            switch problem.field {
            case "interval": ReminderFields.repeatInterval
            case "monthDay": ReminderFields.repeatMonthDay
            case "weekdays": ReminderFields.repeatDays
            default: problem.field
            }
        return APIErrorDetail(code: problem.code, message: problem.message, field: field)
    }

    /// The days a repeat of `frequency` falls on, from the one field it uses; the fields of the
    /// other frequencies must be absent.
    private static func patternOf(_ frequency: RepeatFrequency, _ given: (String) -> JSONTree?) -> Result<
        RepeatPattern, APIErrorDetail
    > {
        let days = given(ReminderFields.repeatDays)
        let monthDay = given(ReminderFields.repeatMonthDay)
        let monthWeekday = given(ReminderFields.repeatMonthWeekday)
        func unused(_ field: String) -> Result<RepeatPattern, APIErrorDetail> {
            .failure(refuse(.validationFailed, "A \(frequency.rawValue) repeat has no \(field).", field: field))
        }
        switch frequency {
        case .daily:
            if days != nil { return unused(ReminderFields.repeatDays) }
            if monthDay != nil { return unused(ReminderFields.repeatMonthDay) }
            if monthWeekday != nil { return unused(ReminderFields.repeatMonthWeekday) }
            return .success(.daily)
        case .weekly:
            if monthDay != nil { return unused(ReminderFields.repeatMonthDay) }
            if monthWeekday != nil { return unused(ReminderFields.repeatMonthWeekday) }
            let codes = (days?.stringValue ?? "").split(separator: ",").map { Weekday(name: String($0)) }
            guard days != nil else {
                return .failure(
                    refuse(
                        .validationFailed, "A repeat needs its days, interval, start date and time.",
                        field: ReminderFields.repeatDays))
            }
            guard !codes.contains(where: { $0 == nil }) else {
                return .failure(
                    refuse(
                        .validationFailed, "repeatDays lists days as MO,TU,WE,TH,FR,SA,SU.",
                        field: ReminderFields.repeatDays))
            }
            return .success(.weekly(Set(codes.compactMap { $0 })))
        case .monthly:
            if days != nil { return unused(ReminderFields.repeatDays) }
            switch (monthDay, monthWeekday) {
            case (let day?, nil):
                guard let number = day.intValue else {
                    return .failure(
                        refuse(
                            .validationFailed, "repeatMonthDay is a day of the month from 1 to 31.",
                            field: ReminderFields.repeatMonthDay))
                }
                return .success(.monthlyOnDay(Int(number)))
            case (nil, let place?):
                guard let read = place.stringValue.flatMap(MonthlyWeekday.init(code:)) else {
                    return .failure(
                        refuse(
                            .validationFailed,
                            "repeatMonthWeekday is a weekday's place in the month: 1TU to 5TU, or -1TU for the last.",
                            field: ReminderFields.repeatMonthWeekday))
                }
                return .success(.monthlyOnWeekday(read))
            default:
                return .failure(
                    refuse(
                        .validationFailed,
                        "A monthly repeat is on a day of the month or on a weekday's place in it: one of the two.",
                        field: ReminderFields.repeatMonthDay))
            }
        }
    }
}
