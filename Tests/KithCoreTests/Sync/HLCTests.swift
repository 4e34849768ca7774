import Foundation
import KithCore
import Testing

@Suite("Hybrid logical clock")
struct HLCTests {
    @Test func wireFormSortsLikeTheTimestamp() throws {
        let stamp = HLC(wallMillis: 1_763_740_800_000, counter: 7, node: "6f1c")
        #expect(stamp.description == "001763740800000-00007-6f1c")
        #expect(HLC(stamp.description) == stamp)
        let stamps = [
            HLC(wallMillis: 9, counter: 0, node: "b"), HLC(wallMillis: 10, counter: 0, node: "a"),
            HLC(wallMillis: 10, counter: 2, node: "a"), HLC(wallMillis: 10, counter: 10, node: "a"),
            HLC(wallMillis: 10, counter: 10, node: "b"), HLC(wallMillis: 100_000_000_000, counter: 0, node: "a"),
        ]
        #expect(stamps.sorted() == stamps)
        #expect(stamps.map(\.description).sorted() == stamps.map(\.description))
    }

    /// Zeros pad the wall time to 15 digits and the counter to 5; wider values are written whole.
    @Test(arguments: [
        (Int64(0), 0, "000000000000000-00000-n"), (Int64(999_999_999_999_999), 99_999, "999999999999999-99999-n"),
        (Int64(1_000_000_000_000_000), 100_000, "1000000000000000-100000-n"), (Int64(-5), 0, "0000000000000-5-00000-n"),
    ])
    func writesPaddedDigits(wall: Int64, counter: Int, text: String) {
        #expect(HLC(wallMillis: wall, counter: counter, node: "n").description == text)
    }

    @Test(arguments: ["", "1-2-3", "00000000000001-00000-n", "000000000000001-0000-n", "000000000000001-00000-",
        "00000000000000x-00000-n", "000000000000001-+0000-n"])
    func refusesMalformedStamps(text: String) {
        #expect(HLC(text) == nil)
    }

    /// Nodes are any text: one that begins with a combining mark or an emoji modifier would join
    /// the dash before it into one character, and did not parse.
    @Test(arguments: ["\u{0301}x", "\u{1F3FB}abc", "web-1a2b", "-"])
    func anyNodeParses(node: String) throws {
        let stamp = HLC(wallMillis: 120_503_655_506_702, counter: 28161, node: node)
        #expect(HLC(stamp.description) == stamp)
    }

    @Test func localEventsAlwaysMoveForwardEvenWhenTheWallClockGoesBack() {
        var clock = HybridLogicalClock(node: "a")
        let first = clock.tick(now: 1000)
        let second = clock.tick(now: 1000)
        let third = clock.tick(now: 900)
        let fourth = clock.tick(now: 1001)
        #expect(first < second && second < third && third < fourth)
        #expect(third.wallMillis == 1000 && third.counter == 2)
        #expect(fourth == HLC(wallMillis: 1001, counter: 0, node: "a"))
    }

    @Test func receivingALaterStampMovesTheClockPastIt() {
        var clock = HybridLogicalClock(node: "a")
        _ = clock.tick(now: 1000)
        let remote = HLC(wallMillis: 5000, counter: 3, node: "b")
        clock.receive(remote, now: 1001)
        let next = clock.tick(now: 1002)
        #expect(next > remote)
        #expect(next == HLC(wallMillis: 5000, counter: 5, node: "a"))
    }

    @Test func aFullCounterSpillsIntoTheNextMillisecond() {
        var clock = HybridLogicalClock(node: "a", last: HLC(wallMillis: 10, counter: HLC.maxCounter, node: "a"))
        let next = clock.tick(now: 10)
        #expect(next == HLC(wallMillis: 11, counter: 0, node: "a"))
        #expect(next.description.hasPrefix("000000000000011-00000-"))
    }

    @Test func stampsTravelAsTheirStringForm() throws {
        let stamp = HLC(wallMillis: 42, counter: 1, node: "n")
        let json = String(decoding: try JSONEncoder().encode([stamp]), as: UTF8.self)
        #expect(json == #"["000000000000042-00001-n"]"#)
        #expect(try JSONDecoder().decode([HLC].self, from: Data(json.utf8)) == [stamp])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([HLC].self, from: Data(#"["soon"]"#.utf8)) }
    }
}
