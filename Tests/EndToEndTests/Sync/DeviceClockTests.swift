import Foundation
import KithCore
import KithKit
import KithTestSupport
import Synchronization
import Testing

/// A device's clock that a test sets wrong and right again, as a person or a bad battery does.
final class DeviceClock: Sendable {
    private let ahead = Mutex<TimeInterval>(0)

    /// How far ahead of the real time the device's clock runs, in seconds.
    var secondsAhead: TimeInterval {
        get { ahead.withLock { $0 } }
        set { ahead.withLock { $0 = newValue } }
    }

    var now: @Sendable () -> Date { { [self] in Date().addingTimeInterval(secondsAhead) } }
}

/// Nothing a person writes is dropped because a device's clock was wrong (docs/sync.md, "A
/// device's clock"): the server refuses stamps far ahead of its own time and says its time, and the
/// device re-stamps what it queued and sends it again, by itself.
@Suite("A device's clock")
struct DeviceClockTests {
    static let twoDays: TimeInterval = 2 * 24 * 3600

    @Test("changes made while the clock ran two days ahead, and after it was set right, all arrive", arguments: Engine.available)
    func aClockThatRanAheadLosesNothing(engine: Engine) async throws {
        try await LiveServer.run(engine) { server in
            let email = uniqueEmail("clock")
            let clock = DeviceClock()
            let phone = try await SyncDevice.make(server: server.url, email: email, signUp: true, now: clock.now)
            let laptop = try await SyncDevice.make(server: server.url, email: email)
            // The server keeps the real time (its test clock is set to it before each sync): which
            // change came later is decided to the millisecond here.
            @discardableResult
            func sync(_ device: SyncDevice) async throws -> SyncEngine.Report {
                server.clock.set(to: Date())
                return try await device.engine.sync()
            }

            // Offline, the phone's clock two days ahead: what it writes is stamped two days ahead.
            phone.network.isOnline = false
            clock.secondsAhead = Self.twoDays
            let year = try phone.store.save("outreach.year", fields: OutreachSample.year("2026"))
            let ada = try phone.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "Ada", last: "Lovelace"))
            // The clock is set right; the phone's stamps stay ahead (its clock never goes back by itself).
            clock.secondsAhead = 0
            let after = try phone.store.save("outreach.contact", fields: OutreachSample.contact(year: year, first: "After", last: "Fix"))
            phone.network.isOnline = true

            let report = try await sync(phone)
            #expect(report.rejected.isEmpty, "nothing is refused for the clock: \(report.rejected.map(\.message))")
            #expect(report.pushed == 3)
            #expect(try phone.store.pendingCount() == 0)
            #expect(try phone.store.rejections().isEmpty)
            try await sync(laptop)
            var seen = try laptop.outreachSnapshot()
            #expect(seen[ada]?["firstName"] == .string("Ada"))
            #expect(seen[after]?["firstName"] == .string("After"), "the change made after the clock was set right arrived")
            #expect(seen == (try phone.outreachSnapshot()))

            // The laptop, on time, changes Ada after the phone did: its change wins everywhere; the
            // phone's stamps no longer beat it from two days ahead.
            try laptop.store.save("outreach.contact", id: ada, fields: ["comments": .string("laptop, later")])
            try await sync(laptop)
            try await sync(phone)
            #expect(try phone.store.record("outreach.contact", id: ada)?.string("comments") == "laptop, later")

            // Ahead again, online this time: the phone stamps by the server's time from the first
            // answer on, so its later change wins over the laptop's earlier one, and arrives.
            clock.secondsAhead = Self.twoDays
            try phone.store.save("outreach.contact", id: ada, fields: ["comments": .string("phone, ahead")])
            let ahead = try await sync(phone)
            #expect(ahead.rejected.isEmpty)
            try phone.store.save("outreach.contact", id: ada, fields: ["enterpriseName": .string("Analytical")])
            let stamped = try await sync(phone)
            #expect(stamped.pushed == 1 && stamped.rejected.isEmpty)
            try laptop.store.save("outreach.contact", id: ada, fields: ["enterpriseName": .string("Engines")])
            try await sync(laptop)
            try await sync(phone)
            seen = try laptop.outreachSnapshot()
            #expect(seen[ada]?["comments"] == .string("phone, ahead"))
            #expect(seen[ada]?["enterpriseName"] == .string("Engines"), "the laptop's later change wins over the phone's earlier one")
            #expect(seen == (try phone.outreachSnapshot()))

            // Set right again: the phone goes back to its own clock and nothing is lost.
            clock.secondsAhead = 0
            try phone.store.save("outreach.contact", id: ada, fields: ["comments": .string("phone, on time")])
            #expect(try await sync(phone).rejected.isEmpty)
            try await sync(laptop)
            #expect(try laptop.store.record("outreach.contact", id: ada)?.string("comments") == "phone, on time")
            #expect(try phone.store.pendingCount() == 0)
        }
    }
}
