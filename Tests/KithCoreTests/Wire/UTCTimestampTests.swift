import Foundation
import KithCore
import Testing

@Suite("Timestamps written digit by digit")
struct UTCTimestampTests {
    /// Foundation's ISO 8601 style is the oracle over the years where its calendar is Gregorian
    /// too (from 1583; before, Foundation's is Julian), spread up to year 9999.
    @Test func matchesFoundationAcrossTheYears() {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        let gregorian = UTCTimestamp.gregorianMillis
        let samples = [gregorian, UTCTimestamp.latestMillis, 0, -1, 951_782_400_000]
            + (0..<2_000).map { _ in Int64.random(in: gregorian...UTCTimestamp.latestMillis, using: &generator) }
        for millis in samples {
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            let expected = date.formatted(style)
            #expect(UTCTimestamp.text(millis: millis, withMillis: true).prefix(19) == expected.prefix(19), "\(millis)")
            let fraction = ((millis % 1000) + 1000) % 1000
            #expect(UTCTimestamp.text(millis: millis, withMillis: true).hasSuffix(String(format: ".%03dZ", fraction)))
            #expect(UTCTimestamp.text(millis: millis, withMillis: false) == expected.prefix(19) + "Z")
        }
    }

    /// Before 1583 the days are Gregorian still, as `LocalDate` counts them.
    @Test func earlyDaysAreProlepticGregorian() {
        for day in [LocalDate(year: 1, month: 1, day: 1), LocalDate(year: 1038, month: 7, day: 26), LocalDate(year: 1582, month: 10, day: 4)] {
            guard let day else { continue }
            #expect(UTCTimestamp.text(millis: Int64(day.dayNumber) * 86_400_000, withMillis: false) == "\(day)T00:00:00Z")
        }
    }

    @Test func timesOutsideTheYearsAreClampedAndDaysPadded() {
        #expect(UTCTimestamp.text(millis: .min, withMillis: true) == "0001-01-01T00:00:00.000Z")
        #expect(UTCTimestamp.text(millis: .max, withMillis: false) == "9999-12-31T23:59:59Z")
        #expect(UTCTimestamp.text(millis: -1, withMillis: true) == "1969-12-31T23:59:59.999Z")
        #expect(LocalDate(year: 7, month: 3, day: 9)?.description == "0007-03-09")
        #expect(UTCTimestamp.padded(5, width: 3) == "005" && UTCTimestamp.padded(12345, width: 2) == "12345")
    }
}
