import Foundation

/// Monica's special dates (birthdate, deceased date, first met): known or not, exact or from an
/// age, with or without a year. Turned into the three columns a contact stores per date.
struct SpecialDateInput {
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

    /// The stored columns for a date named `prefix`, or a validation error for an impossible date.
    func columns(_ prefix: String, today: MonicaDate, attribute: String) throws -> [String: DBValue] {
        guard known else {
            return ["\(prefix)": .null, "\(prefix)_is_age_based": .null, "\(prefix)_is_year_unknown": .null]
        }
        if ageBased, let age {
            // Born in year 1 at the earliest: the oldest age is this year minus one.
            let oldest = Int64(today.year - MonicaDate.years.lowerBound)
            guard (0...oldest).contains(age), let date = MonicaDate(year: today.year - Int(age), month: 1, day: 1) else {
                throw MonicaError.invalid("The age must be between 0 and \(oldest).")
            }
            return [
                prefix: .text(date.ymd), "\(prefix)_is_age_based": .bool(true),
                "\(prefix)_is_year_unknown": .bool(false),
            ]
        }
        let knownYear = year.flatMap { $0 == 0 ? nil : $0 }
        let yearUnknown = knownYear == nil
        // Each part is checked in Int64 before it narrows, so no number can trap.
        guard let year = Self.narrow(knownYear ?? Int64(today.year)), let month = Self.narrow(month ?? 0),
            let day = Self.narrow(day ?? 0), let date = MonicaDate(year: year, month: month, day: day)
        else {
            throw MonicaError.invalid("The \(attribute) is not a valid date.")
        }
        return [
            prefix: .text(date.ymd), "\(prefix)_is_age_based": .bool(false),
            "\(prefix)_is_year_unknown": .bool(yearUnknown),
        ]
    }

    /// A date part that fits a calendar (nil for anything beyond 10,000 either way).
    private static func narrow(_ value: Int64) -> Int? {
        (-10_000...10_000).contains(value) ? Int(value) : nil
    }
}
