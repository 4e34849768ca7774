import Foundation
import KithCore
import Testing

@Suite("Local dates")
struct LocalDateTests {
    @Test func parsesOnlyRealDaysInTheWireForm() {
        #expect(LocalDate("2026-11-24")?.description == "2026-11-24")
        #expect(LocalDate("2024-02-29") != nil, "a leap day")
        for text in ["2025-02-29", "1900-02-29", "2026-13-01", "2026-00-10", "2026-11-31", "0000-01-01", "26-11-24",
            "2026-1-24", "2026/11/24", "２０２６-11-24", "2026-11-24T00:00", ""]
        {
            #expect(LocalDate(text) == nil, "\(text) is refused")
        }
        #expect(LocalDate("2000-02-29") != nil, "2000 was a leap year")
    }

    @Test func dayArithmeticCrossesMonthsYearsAndLeapDays() {
        let date = LocalDate("2026-03-01")!
        #expect(date.adding(days: -1).description == "2026-02-28")
        #expect(LocalDate("2024-03-01")!.adding(days: -1).description == "2024-02-29")
        #expect(LocalDate("2026-11-24")!.adding(days: -90).description == "2026-08-26")
        #expect(LocalDate("2026-12-31")!.adding(days: 1).description == "2027-01-01")
        #expect(LocalDate("1970-01-01")!.dayNumber == 0)
        #expect(LocalDate(dayNumber: LocalDate("0001-01-01")!.dayNumber)?.description == "0001-01-01")
        #expect(LocalDate(dayNumber: LocalDate("9999-12-31")!.dayNumber)?.description == "9999-12-31")
    }

    @Test func arithmeticStaysWithinYearsOneTo9999WhateverTheCount() {
        #expect(LocalDate("0001-01-02")!.adding(days: -5).description == "0001-01-01")
        #expect(LocalDate("9999-12-30")!.adding(days: Int.max).description == "9999-12-31")
        #expect(LocalDate("2026-01-01")!.adding(days: Int.min).description == "0001-01-01")
        #expect(LocalDate(dayNumber: Int.max) == nil)
    }

    @Test func todayDependsOnTheTimeZone() {
        let instant = Date(timeIntervalSince1970: 1_795_824_000)  // 2026-11-28T00:00:00Z
        #expect(LocalDate(instant, in: TimeZone(identifier: "UTC")!).description == "2026-11-28")
        #expect(LocalDate(instant, in: TimeZone(identifier: "America/Los_Angeles")!).description == "2026-11-27")
        #expect(LocalDate(instant, in: TimeZone(identifier: "Pacific/Kiritimati")!).description == "2026-11-28")
    }
}
