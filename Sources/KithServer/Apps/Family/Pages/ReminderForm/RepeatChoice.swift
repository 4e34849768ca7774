import Foundation
import KithCore

/// The form's "Repeats" part (family-reminder-form.mustache): never, daily, weekly or monthly, and
/// the fields each needs, with what was chosen. Every part is rendered; `family.js` hides those the
/// choice does not use, so without the script the form still shows (and sends) them all.
struct RepeatChoice {
    struct Option {
        let value: String
        let label: String
        let selected: Bool
    }

    /// The interval's unit and bounds for one frequency, for `family.js` to apply as it changes.
    struct Unit {
        let frequency: String
        let plural: String
        let min: String
        let max: String
    }

    let frequencies: [Option]
    /// The chosen frequency ("never" when none), which parts the page shows first.
    let chosen: String
    let isNever: Bool
    let isDaily: Bool
    let isWeekly: Bool
    let isMonthly: Bool
    /// A monthly repeat on a day of the month, else on a weekday's place.
    let onMonthDay: Bool
    let ordinals: [Option]
    let weekdays: [Option]
    /// The interval's unit ("weeks") and bounds for the chosen frequency (weekly when none), and
    /// every frequency's.
    let unit: Unit
    let units: [Unit]

    init(_ form: ReminderForm) {
        let frequency = form.chosenFrequency
        chosen = frequency?.rawValue ?? "never"
        frequencies =
            [Option(value: "never", label: "Never", selected: frequency == nil)]
            + RepeatFrequency.allCases.map {
                Option(value: $0.rawValue, label: $0.rawValue.capitalized, selected: frequency == $0)
            }
        isNever = frequency == nil
        isDaily = frequency == .daily
        isWeekly = frequency == .weekly
        isMonthly = frequency == .monthly
        onMonthDay = form.monthly != "weekday"
        ordinals = MonthlyWeekday.ordinals.map {
            Option(value: String($0), label: MonthlyWeekday.ordinalWord($0), selected: String($0) == form.ordinal)
        }
        weekdays = Weekday.allCases.map {
            Option(value: $0.code, label: $0.name, selected: $0.code == form.weekday.uppercased())
        }
        units = RepeatFrequency.allCases.map(Self.unit)
        unit = Self.unit(frequency ?? .weekly)
    }

    private static func unit(_ frequency: RepeatFrequency) -> Unit {
        Unit(
            frequency: frequency.rawValue, plural: frequency.unit + "s",
            min: String(frequency.intervals.lowerBound), max: String(frequency.intervals.upperBound))
    }
}
