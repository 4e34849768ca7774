import Foundation

/// Monica's special dates (birthdate, deceased date, first met) as a write gives them: known or
/// not, exact or from an age, with or without a year.
struct SpecialDateInput: Sendable {
    let known: Bool
    let ageBased: Bool
    let day: Int64?
    let month: Int64?
    let year: Int64?
    let age: Int64?

    /// The messages Monica gives for what is missing (its services name the fields day, month, age).
    func problems() -> [String] {
        guard known else { return [] }
        if ageBased { return age == nil ? ["The age field is required."] : [] }
        var problems: [String] = []
        if day == nil { problems.append("The day field is required.") }
        if month == nil { problems.append("The month field is required.") }
        return problems
    }

    /// The date to store, or a validation error for an impossible date.
    func value(today: MonicaDate, attribute: String) throws -> SpecialDateValue {
        guard known else { return .unknown }
        if ageBased, let age {
            // Born in year 1 at the earliest: the oldest age is this year minus one.
            let oldest = Int64(today.year - MonicaDate.years.lowerBound)
            guard (0...oldest).contains(age), let date = MonicaDate(year: today.year - Int(age), month: 1, day: 1)
            else {
                throw MonicaError.invalid("The age must be between 0 and \(oldest).")
            }
            return SpecialDateValue(day: date, isAgeBased: true, isYearUnknown: false)
        }
        let knownYear = year.flatMap { $0 == 0 ? nil : $0 }
        let yearUnknown = knownYear == nil
        // Each part is checked in Int64 before it narrows, so no number can trap.
        guard let year = Self.narrow(knownYear ?? Int64(today.year)), let month = Self.narrow(month ?? 0),
            let day = Self.narrow(day ?? 0), let date = MonicaDate(year: year, month: month, day: day)
        else {
            throw MonicaError.invalid("The \(attribute) is not a valid date.")
        }
        // A day with its year has happened: a birthday, a death, a first meeting. "Today" is the
        // latest calendar day anywhere (UTC+14 is a day ahead of UTC at most), so nobody's today
        // is refused by a server in another zone.
        if !yearUnknown, date.dayNumber > today.dayNumber + 1 {
            throw MonicaError.invalid("The \(attribute) must be a date before or equal to today.")
        }
        return SpecialDateValue(day: date, isAgeBased: false, isYearUnknown: yearUnknown)
    }

    /// A date part that fits a calendar (nil for anything beyond 10,000 either way).
    private static func narrow(_ value: Int64) -> Int? {
        (-10_000...10_000).contains(value) ? Int(value) : nil
    }
}

/// A special date as a contact stores it: a day and its two flags, or none.
struct SpecialDateValue: Sendable {
    let day: MonicaDate?
    let isAgeBased: Bool
    let isYearUnknown: Bool

    static let unknown = SpecialDateValue(day: nil, isAgeBased: false, isYearUnknown: false)

    /// The three columns of the date named `prefix` (`birthdate`, `birthdate_is_age_based`…).
    func columns(_ prefix: String) -> MonicaColumns {
        guard let day else {
            return [prefix: .null, "\(prefix)_is_age_based": .null, "\(prefix)_is_year_unknown": .null]
        }
        return [
            prefix: .text(day.ymd), "\(prefix)_is_age_based": .bool(isAgeBased),
            "\(prefix)_is_year_unknown": .bool(isYearUnknown),
        ]
    }
}
