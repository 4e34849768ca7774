import Foundation
import KithCore
import Testing

@Suite("iCalendar: VTIMEZONE from Foundation's zones")
struct VTimeZoneWriterTests {
    struct Observance: Equatable, CustomStringConvertible {
        let kind: String, onset: String, from: String, to: String
        var description: String { "\(kind) \(onset) \(from)→\(to)" }
    }

    static func observances(_ component: String) throws -> (tzid: String?, [Observance]) {
        let lines = try ContentLines.parse(component)
        var result: [Observance] = []
        var kind = "", onset = "", from = ""
        for line in lines {
            switch line.name {
            case "BEGIN" where line.value != "VTIMEZONE": kind = line.value
            case "DTSTART": onset = line.value
            case "TZOFFSETFROM": from = line.value
            case "TZOFFSETTO": result.append(Observance(kind: kind, onset: onset, from: from, to: line.value))
            default: break
            }
        }
        return (lines.first { $0.name == "TZID" }?.value, result)
    }

    static let from = CalendarTaskTests.instant("2024-01-01T00:00:00Z")
    static let to = CalendarTaskTests.instant("2025-01-01T00:00:00Z")

    @Test func berlin() throws {
        let (tzid, found) = try Self.observances(
            VTimeZoneWriter.component(for: TimeZone(identifier: "Europe/Berlin")!, from: Self.from, to: Self.to))
        #expect(tzid == "Europe/Berlin")
        #expect(
            found == [
                Observance(kind: "STANDARD", onset: "20231029T030000", from: "+0200", to: "+0100"),
                Observance(kind: "DAYLIGHT", onset: "20240331T020000", from: "+0100", to: "+0200"),
                Observance(kind: "STANDARD", onset: "20241027T030000", from: "+0200", to: "+0100"),
            ])
    }

    @Test func newYork() throws {
        let (_, found) = try Self.observances(
            VTimeZoneWriter.component(for: TimeZone(identifier: "America/New_York")!, from: Self.from, to: Self.to))
        #expect(
            found == [
                Observance(kind: "STANDARD", onset: "20231105T020000", from: "-0400", to: "-0500"),
                Observance(kind: "DAYLIGHT", onset: "20240310T020000", from: "-0500", to: "-0400"),
                Observance(kind: "STANDARD", onset: "20241103T020000", from: "-0400", to: "-0500"),
            ])
    }

    @Test func sydneyInTheSouthernHemisphere() throws {
        let (_, found) = try Self.observances(
            VTimeZoneWriter.component(for: TimeZone(identifier: "Australia/Sydney")!, from: Self.from, to: Self.to))
        #expect(
            found == [
                Observance(kind: "DAYLIGHT", onset: "20231001T020000", from: "+1000", to: "+1100"),
                Observance(kind: "STANDARD", onset: "20240407T030000", from: "+1100", to: "+1000"),
                Observance(kind: "DAYLIGHT", onset: "20241006T020000", from: "+1000", to: "+1100"),
            ])
    }

    @Test func kolkataHasNoDaylightSavingAndAHalfHourOffset() throws {
        let (tzid, found) = try Self.observances(
            VTimeZoneWriter.component(for: TimeZone(identifier: "Asia/Kolkata")!, from: Self.from, to: Self.to))
        #expect(tzid == "Asia/Kolkata")
        #expect(found == [Observance(kind: "STANDARD", onset: "19700101T000000", from: "+0530", to: "+0530")])
    }

    @Test func utc() throws {
        let (tzid, found) = try Self.observances(
            VTimeZoneWriter.component(for: TimeZone(identifier: "UTC")!, from: Self.from, to: Self.to))
        #expect(tzid == TimeZone(identifier: "UTC")!.identifier, "Foundation calls it GMT on some platforms")
        #expect(found == [Observance(kind: "STANDARD", onset: "19700101T000000", from: "+0000", to: "+0000")])
    }

    @Test func aWrittenCalendarReadsBackInTheSameZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let due = CalendarTime.local(CalendarTaskTests.instant("2024-07-01T07:00:00Z"), in: berlin)
        let text = CalendarDocument.write(
            tasks: [CalendarTask(uid: "a", summary: "Bins", due: due)], timeZone: berlin, from: Self.from, to: Self.to)
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Kith//Kith//EN\r\n"))
        #expect(text.contains("DUE;TZID=Europe/Berlin:20240701T090000\r\n"))
        let document = try CalendarDocument.parse(text)
        #expect(document.tasks.first?.due == due)
        #expect(document.timeZones["Europe/Berlin"] == berlin)
    }
}
