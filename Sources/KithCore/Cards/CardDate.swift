import Foundation

/// A vCard date (BDAY, DEATHDATE): a full date, a day without a year, or a year alone.
public enum CardDate: Sendable, Equatable {
    case full(year: Int, month: Int, day: Int)
    /// 4.0 "--0412"; 3.0 "--04-12" and Apple's "1604-04-12" with X-APPLE-OMIT-YEAR=1604.
    case monthDay(month: Int, day: Int)
    /// 4.0 "1987".
    case year(Int)

    /// The year Apple writes for a date without one, named again in X-APPLE-OMIT-YEAR.
    static let appleOmittedYear = 1604

    /// Reads 19870412, 1987-04-12, 1987-04-12T00:00:00Z (the time is dropped), --0412, --04-12 and
    /// 1987; a date whose year equals `omittedYear` (Apple's X-APPLE-OMIT-YEAR) has no year.
    public init?(vCardValue text: String, omittedYear: Int? = nil) {
        var value = Substring(text.trimmingCharacters(in: .whitespaces))
        if let time = value.firstIndex(where: { $0 == "T" || $0 == "t" }) { value = value[..<time] }
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else { return nil }
        if value.hasPrefix("--") {
            let digits = value.dropFirst(2).filter { $0 != "-" }
            guard digits.count == 4, let month = Int(digits.prefix(2)), let day = Int(digits.suffix(2)),
                CardDate.valid(month: month, day: day)
            else { return nil }
            self = .monthDay(month: month, day: day)
            return
        }
        let digits = value.filter { $0 != "-" }
        if digits.count == 4, !value.contains("-"), let year = Int(digits) {
            self = .year(year)
            return
        }
        guard digits.count == 8, let year = Int(digits.prefix(4)), let month = Int(digits.dropFirst(4).prefix(2)),
            let day = Int(digits.suffix(2)), CardDate.valid(month: month, day: day)
        else { return nil }
        self = year == omittedYear ? .monthDay(month: month, day: day) : .full(year: year, month: month, day: day)
    }

    private static func valid(month: Int, day: Int) -> Bool { (1...12).contains(month) && (1...31).contains(day) }

    /// The value and parameters to write. 4.0: "19870412", "--0412", "1987". 3.0: "1987-04-12",
    /// and a day without a year as Apple writes it, "1604-04-12" with X-APPLE-OMIT-YEAR=1604:
    /// iOS and macOS Contacts show that as "12 April" (they show 3.0's "--04-12" as nothing, or
    /// as a date in year 1), DAVx5 reads it back as a day without a year, and so does Kith.
    func vCardValue(_ version: ContactCard.Version) -> (value: String, parameters: [ContentLine.Parameter]) {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        func four(_ n: Int) -> String { String(repeating: "0", count: max(0, 4 - String(n).count)) + String(n) }
        switch (self, version) {
        case (.full(let year, let month, let day), .v4): return ("\(four(year))\(two(month))\(two(day))", [])
        case (.full(let year, let month, let day), .v3): return ("\(four(year))-\(two(month))-\(two(day))", [])
        case (.monthDay(let month, let day), .v4): return ("--\(two(month))\(two(day))", [])
        case (.monthDay(let month, let day), .v3):
            return (
                "\(CardDate.appleOmittedYear)-\(two(month))-\(two(day))",
                [ContentLine.Parameter(name: "X-APPLE-OMIT-YEAR", values: ["\(CardDate.appleOmittedYear)"])]
            )
        case (.year(let year), _): return (four(year), [])
        }
    }
}
