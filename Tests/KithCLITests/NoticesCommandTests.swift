import Foundation
import KithCore
import KithServer
import KithTestSupport
import Testing

/// `kith inbox`, `kith reminders snooze`, `kith reminders locate`, places on `add` and `edit`, and
/// `kith family settings --snooze-limit`: a parent and a child against a server whose job runner
/// delivers the notices (issue 17).
@Suite("kith inbox, snooze and locate")
struct NoticesCommandTests {
    typealias Family = FamilyCommandTests

    /// A server whose job runner looks for due notices every 20 ms, on `clock` when given.
    static func configure(_ clock: TestClock?) -> (inout ServerConfig) -> Void {
        { config in
            if let clock { config.clock = clock.clock }
            config.jobs.pollInterval = .milliseconds(20)
        }
    }

    @Test("snoozing up to the family's limit; the due and the late snoozed notice in kith inbox")
    func snoozeAndInbox() async throws {
        // Time stands still unless the test moves it, for the server and (once the family is made,
        // from the wall clock it started at) for the devices: a notice comes when the clock says.
        let time = TestClock(Date())
        try await TestServer.run(configure: Self.configure(time)) { server in
            try await withHome { home in
                var (parent, child, _) = try await Family.family(server, home: home)
                parent.now = time.clock.now
                child.now = time.clock.now
                child.environment["TZ"] = "Europe/Berlin"
                let notAParent = await child.kith(["family", "settings", "--snooze-limit", "5"])
                #expect(notAParent.exitCode == 1, "\(notAParent)")
                let limited = await parent.kith(["family", "settings", "--snooze-limit", "2"])
                #expect(
                    limited.stdout == "Lovelaces (Europe/Berlin): a reminder may be snoozed 2 times.\n", "\(limited)")

                let added = try await child.object([
                    "reminders", "add", "Feed the cat", "--due",
                    WireCoding.formatTimestamp(time.now.addingTimeInterval(6)),
                ])
                let id = try #require(added["id"] as? String)
                let due = try #require((added["dueAt"] as? String).flatMap(WireCoding.parseTimestamp))

                time.set(to: due)
                let first = try await child.object(["reminders", "snooze", String(id.prefix(8)), "--minutes", "15"])
                #expect(first["snoozeCount"] as? Int == 1 && first["snoozesLeft"] as? Int == 1, "\(first)")
                let second = await child.kith(["reminders", "snooze", id])
                let snoozed = try #require(try await child.array(["reminders"]).first)
                let until = try #require((snoozed["snoozedUntil"] as? String).flatMap(WireCoding.parseTimestamp))
                #expect(
                    second.stdout == "Snoozed Feed the cat until \(Self.berlin(until)); no snoozes left.\n", "\(second)"
                )
                #expect(abs(until.timeIntervalSince(due) - 600) < 1, "10 minutes by default")
                let third = await child.kith(["reminders", "snooze", id])
                #expect(third.stderr == "error: This reminder was snoozed 2 times, the family's limit.\n", "\(third)")

                try await eventually { try await Self.kinds(child).contains("due") }
                let inbox = await child.kith(["inbox"])
                let dueLine =
                    "* \(Self.berlin(due))  \(Self.padded("due"))  Feed the cat · Due now (\(Self.clock(due)))."
                #expect(inbox.stdout.split(separator: "\n").contains { $0 == dueLine }, "\(inbox)")
                // Read in New York, the line and the words are both on New York's clock.
                var abroad = child
                abroad.environment["TZ"] = "America/New_York"
                let newYork = TimeZone(identifier: "America/New_York")!
                let readAbroad = await abroad.kith(["inbox"])
                let abroadLine =
                    "* \(Self.formatted(due, "EEE yyyy-MM-dd HH:mm", in: newYork))  \(Self.padded("due"))  Feed the cat · Due now (\(Self.formatted(due, "HH:mm", in: newYork)))."
                #expect(readAbroad.stdout.split(separator: "\n").contains { $0 == abroadLine }, "\(readAbroad)")
                #expect(await parent.kith(["inbox"]).stdout == "No notices.\n", "the child's notices are hers")

                // The second snooze's notice comes while the server is away: late, and said so.
                time.advance(by: 13 * 60)
                try await eventually { try await Self.kinds(child).contains("snoozed") }
                let late = await child.kith(["inbox", "--limit", "1"])
                let lines = late.stdout.split(separator: "\n").map(String.init)
                #expect(lines.count == 3, "\(late)")
                #expect(
                    lines.first?.hasPrefix("* \(Self.berlin(until))  \(Self.padded("snoozed"))  Feed the cat · ")
                        == true)
                #expect(lines.first?.contains("Snoozed 2 of 2 times; 0 left.") == true, "\(late)")
                #expect(lines.first?.contains("  · late, arrived ") == true, "\(late)")
                #expect(lines.dropFirst().first == "(older notices not shown: raise --limit)")

                let unread = try await child.object(["inbox", "--unread"])
                let count = try #require(unread["unread"] as? Int)
                #expect(count >= 2 && (unread["notices"] as? [Any])?.count == count, "\(unread)")
                let readAll = await child.kith(["inbox", "--read-all"])
                #expect(
                    readAll.stdout.hasSuffix("\(count) unread.\n") && readAll.stderr == "Marked every notice read.\n")
                #expect(await child.kith(["inbox", "--unread"]).stdout == "No unread notices.\n")
                #expect(await child.kith(["inbox"]).stdout.hasSuffix("\n0 unread.\n"), "read notices stay")

                // Done since: every notice about it says so.
                let completed = await child.kith(["reminders", "complete", id])
                #expect(completed.exitCode == 0, "\(completed)")
                let afterwards = await child.kith(["inbox"])
                let aboutIt = afterwards.stdout.split(separator: "\n").filter { $0.contains("Feed the cat") }
                #expect(!aboutIt.isEmpty && aboutIt.allSatisfy { $0.hasSuffix("  · Completed since") }, "\(afterwards)")
            }
        }
    }

    @Test("places on add and edit; readings ignored, unchanged, moving the place, and the movement the parents see")
    func locate() async throws {
        try await TestServer.run(configure: Self.configure(nil)) { server in
            try await withHome { home in
                let (parent, child, _) = try await Family.family(server, home: home)
                let walk = try await parent.object([
                    "reminders", "add", "Walk the dog", "--due", Family.tomorrow, "--assign", "Cleo",
                    "--lat", Self.degrees(Self.home.latitude), "--lon", Self.degrees(Self.home.longitude),
                    "--accuracy", "8",
                ])
                let place = try #require(walk["place"] as? [String: Any], "\(walk)")
                #expect(place["accuracy"] as? Double == 8 && place["tracking"] as? Bool == true, "\(place)")
                let id = try #require(walk["id"] as? String)

                let homework = try await child.object(["reminders", "add", "Homework", "--due", Family.tomorrow])
                let homeworkID = try #require(homework["id"] as? String)
                let set = await child.kith(["reminders", "locate", homeworkID, "--lat", "48.8566", "--lon", "2.3522"])
                #expect(set.stdout == "Set the place of Homework: 48.856600, 2.352200 (±10 m).\n", "\(set)")
                let sydney = await child.kith([
                    "reminders", "edit", homeworkID, "--lat", "-33.8688", "--lon", "151.2093", "--accuracy", "5",
                ])
                #expect(sydney.stdout.contains("at -33.868800, 151.209300 (±5 m)"), "\(sydney)")
                let nowhere = await child.kith(["reminders", "locate", homeworkID, "--lat", "91", "--lon", "0"])
                #expect(nowhere.exitCode != 0 && nowhere.stderr.contains("--lat is -90 to 90"), "\(nowhere)")

                let far = Self.north(of: Self.home, 25)
                let blurry = await child.kith(Self.locate(id, far, accuracy: "50"))
                #expect(
                    blurry.stdout == "Walk the dog: ignored (not accurate enough: readings count within 20 m).\n",
                    "\(blurry)")
                let near = await child.kith(Self.locate(id, Self.north(of: Self.home, 3)))
                #expect(near.stdout == "Walk the dog: still here (3 m from its place).\n", "\(near)")
                let six = Self.north(of: Self.home, 6)
                let moved = try await child.object(Self.locate(id, six))
                #expect(moved["outcome"] as? String == "updated", "\(moved)")
                #expect(abs((moved["distance"] as? Double ?? 0) - 6) < 0.01)
                // The place stays where it was set: 28 m from it is a movement, though 22 m from the reading.
                let away = await child.kith(Self.locate(id, Self.north(of: Self.home, 28)))
                #expect(away.stdout == "Walk the dog: moved away 28 m: the parents are told.\n", "\(away)")
                let stopped = await child.kith(Self.locate(id, six))
                #expect(
                    stopped.stderr
                        == "error: Tracking stopped when its person moved away: set the place again to track it.\n",
                    "\(stopped)")

                try await eventually { try await Self.kinds(parent).contains("movement") }
                let told = await parent.kith(["inbox"])
                #expect(
                    told.stdout.contains("Cleo moved away · 20 m or more from where Walk the dog was set."), "\(told)"
                )
                let shown = try #require(try await parent.array(["reminders"]).first { $0["id"] as? String == id })
                #expect((shown["place"] as? [String: Any])?["tracking"] as? Bool == false && shown["movedAt"] != nil)
            }
        }
    }

    static let home = GeoPoint(latitude: 52.520008, longitude: 13.404954)!

    /// The point `metres` due north of `point`, as typed (9 decimals: a tenth of a millimetre).
    static func north(of point: GeoPoint, _ metres: Double) -> GeoPoint {
        let typed = Double(degrees(point.latitude + metres / GeoPoint.earthRadius * 180 / .pi))!
        return GeoPoint(latitude: typed, longitude: point.longitude)!
    }

    static func degrees(_ value: Double) -> String { String(format: "%.9f", value) }

    static func locate(_ id: String, _ point: GeoPoint, accuracy: String = "5") -> [String] {
        [
            "reminders", "locate", id, "--lat", degrees(point.latitude), "--lon", degrees(point.longitude),
            "--accuracy",
            accuracy,
        ]
    }

    static func kinds(_ device: Device) async throws -> [String] {
        let page = try await device.object(["inbox"])
        return (page["notices"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
    }

    /// "Tue 2026-11-24 13:02" in Berlin, as `kith` prints times with TZ=Europe/Berlin.
    static func berlin(_ date: Date) -> String { formatted(date, "EEE yyyy-MM-dd HH:mm") }

    static func clock(_ date: Date) -> String { formatted(date, "HH:mm") }

    static func formatted(_ date: Date, _ format: String, in zone: TimeZone = Family.berlin) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = format
        return formatter.string(from: date)
    }

    /// A notice's kind as the inbox lines it up.
    static func padded(_ kind: String) -> String { kind.padding(toLength: 10, withPad: " ", startingAt: 0) }
}
