import Foundation
import KithCore
import KithTestSupport
import Testing

/// `kith family …` and `kith reminders …`: a parent and a child on two devices against a server,
/// every rule seen the way a person at a terminal sees it (seed 003).
@Suite("kith family and kith reminders: text and JSON")
struct FamilyCommandTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// A due time a day ahead, as the server and the devices read the clock now.
    static var tomorrow: String { WireCoding.formatTimestamp(Date().addingTimeInterval(86_400)) }
    static var dayAfterTomorrow: String { LocalDate(Date().addingTimeInterval(2 * 86_400), in: berlin).description }

    /// A parent ("Ada", who founds "Lovelaces" in Berlin) and a child ("Cleo") who joined with a code.
    static func family(_ server: TestServer, home: URL) async throws -> (
        parent: Device, child: Device, childEmail: String
    ) {
        let parent = Device("mum", home: home, server: server.url)
        try await parent.signUp()
        let created = try await parent.object([
            "family", "create", "Lovelaces", "--time-zone", "Europe/Berlin", "--display-name", "Ada",
        ])
        #expect(created["name"] as? String == "Lovelaces" && created["role"] as? String == "parent", "\(created)")
        let invite = try await parent.object(["family", "invite", "--role", "child"])
        let code = try #require(invite["code"] as? String, "\(invite)")
        let child = Device("kid", home: home, server: server.url)
        let childEmail = try await child.signUp()
        let joined = await child.kith(["family", "join", code.lowercased(), "--display-name", "Cleo"])
        #expect(joined.stdout == "Joined Lovelaces as a child.\n", "\(joined)")
        return (parent, child, childEmail)
    }

    @Test("members, invites and roles, then the child leaves the family and its reminders")
    func membership() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let (parent, child, childEmail) = try await Self.family(server, home: home)
                let shown = await parent.kith(["family", "show"])
                #expect(shown.stdout.hasPrefix("Lovelaces (Europe/Berlin), you are a parent\n"), "\(shown)")
                #expect(shown.stdout.contains("Cleo  child   \(childEmail)"), "\(shown)")
                let members = try #require(try await child.object(["family"])["members"] as? [[String: Any]])
                #expect(members.map { $0["displayName"] as? String } == ["Ada", "Cleo"], "parents first")

                let refused = await child.kith(["family", "invite", "--role", "parent"])
                #expect(refused.exitCode == 1 && refused.stderr.hasPrefix("error: "), "\(refused)")
                let nobody = await parent.kith(["family", "role", "Zed", "parent"])
                #expect(nobody.stderr.contains("No member \"Zed\". Members: Ada (parent, "), "\(nobody)")
                #expect(nobody.stderr.contains("Cleo (child, \(childEmail))"), "\(nobody)")
                let promoted = await parent.kith(["family", "role", childEmail.uppercased(), "parent"])
                #expect(promoted.stdout == "Cleo is now a parent.\n", "\(promoted)")
                #expect(try await child.object(["family", "show"])["role"] as? String == "parent")
                #expect(await parent.kith(["family", "role", "cleo", "child"]).exitCode == 0)

                let own = await child.kith(["reminders", "add", "Homework", "--due", Self.tomorrow])
                try #require(own.exitCode == 0, "\(own)")
                #expect(try await child.array(["reminders"]).count == 1)
                let removed = await parent.kith(["family", "remove", "Cleo"])
                #expect(removed.stdout == "Removed Cleo from Lovelaces.\n", "\(removed)")
                let gone = await child.kith(["reminders"])
                #expect(gone.exitCode == 1 && gone.stderr.contains("You are not in a family."), "\(gone)")
                #expect(try await parent.array(["reminders"]).count == 1, "the child's reminder stays with the family")
                let lastParent = await parent.kith(["--json", "family", "leave"])
                #expect(lastParent.exitCode == 0, "the last member may leave: the family goes\n\(lastParent)")
            }
        }
    }

    @Test("reminders: roles, checklists, completion, repeats, ids and members as people type them")
    func reminders() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let (parent, child, childEmail) = try await Self.family(server, home: home)
                let homework = try await parent.object([
                    "reminders", "add", "Homework", "--due", Self.tomorrow, "--assign", childEmail, "--item", "Maths",
                    "--item",
                    "French",
                ])
                #expect((homework["assignee"] as? [String: Any])?["displayName"] as? String == "Cleo", "\(homework)")
                #expect(
                    (homework["checklist"] as? [[String: Any]])?.map { $0["text"] as? String } == ["Maths", "French"])
                let id = try #require(homework["id"] as? String)

                let mine = try await child.array(["reminders", "--mine"])
                #expect(mine.map { $0["title"] as? String } == ["Homework"])
                let forAda = await child.kith([
                    "reminders", "add", "Buy a bike", "--due", Self.tomorrow, "--assign", "ada",
                ])
                #expect(forAda.exitCode == 1, "\(forAda)")
                #expect(forAda.stderr == "error: A child can create reminders only for themselves.\n")
                let ticked = await child.kith(["reminders", "check", String(id.prefix(6)), "2"])
                #expect(ticked.stdout.contains("2. [x] French") && ticked.stdout.contains("1. [ ] Maths"), "\(ticked)")
                #expect(
                    await child.kith(["reminders", "check", String(id.prefix(6)), "maths"]).stdout.contains(
                        "1. [x] Maths"))
                #expect(
                    await child.kith(["reminders", "check", String(id.prefix(6)), "french", "--undo"]).stdout.contains(
                        "2. [ ] French"))
                let noItem = await child.kith(["reminders", "check", String(id.prefix(6)), "Art"])
                #expect(noItem.stderr == "error: No item \"Art\". Its items: 1. Maths, 2. French.\n", "\(noItem)")

                // French is not ticked: completed anyway, as the command asks.
                let completed = try await child.object(["reminders", "complete", id, "--yes"])
                #expect(completed["status"] as? String == "completed", "\(completed)")
                #expect((completed["completedBy"] as? [String: Any])?["displayName"] as? String == "Cleo")
                let done = try await parent.array(["reminders", "--status", "completed"])
                #expect(done.map { $0["id"] as? String } == [id], "the parent's device pulled the completion")
                let readOnly = await parent.kith(["reminders", "edit", id, "--title", "More homework"])
                #expect(readOnly.stderr == "error: A completed reminder can't be changed.\n", "\(readOnly)")

                let bins = try await parent.object([
                    "reminders", "add", "Bins out", "--every", "1", "--on", "mon,wed", "--starting",
                    Self.dayAfterTomorrow,
                    "--at", "07:30", "--assign", "Cleo",
                ])
                #expect(bins["repeats"] as? String == "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;WKST=MO", "\(bins)")
                let binsID = try #require(bins["id"] as? String)
                let firstDue = try #require((bins["dueAt"] as? String).flatMap(WireCoding.parseTimestamp))
                let moved = await child.kith(["reminders", "complete", String(binsID.prefix(8))])
                #expect(moved.stdout.hasPrefix("Done; next due "), "\(moved)")
                let next = try #require(
                    try await child.array(["reminders", "--member", "cleo"]).first { $0["id"] as? String == binsID })
                let nextDue = try #require((next["dueAt"] as? String).flatMap(WireCoding.parseTimestamp))
                #expect(nextDue > firstDue && next["status"] as? String == "pending", "\(next)")

                let parentEmail = try await Self.email(parent)
                let unknown = await parent.kith(["reminders", "add", "Walk", "--due", Self.tomorrow, "--assign", "Zed"])
                #expect(
                    unknown.stderr
                        == "error: No member \"Zed\". Members: Ada (parent, \(parentEmail)), Cleo (child, \(childEmail)).\n",
                    "\(unknown)")
                let noSuch = await parent.kith(["reminders", "complete", "zzz"])
                #expect(noSuch.stderr == "error: No reminder with id zzz.\n", "\(noSuch)")
                let childDelete = await child.kith(["reminders", "delete", binsID])
                #expect(
                    childDelete.stderr == "error: Only the reminder's creator or a parent can delete it.\n",
                    "\(childDelete)")
                #expect(await parent.kith(["reminders", "delete", binsID]).stdout == "Deleted Bins out.\n")
                let text = await child.kith(["reminders"])
                #expect(text.stdout.contains("Homework") && !text.stdout.contains("Bins out"), "\(text)")
            }
        }
    }

    @Test("undo: the one who completed a reminder takes it back within 30 seconds, no one else")
    func undo() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let (parent, child, _) = try await Self.family(server, home: home)
                let added = try await parent.object(["reminders", "add", "Homework", "--due", Self.tomorrow, "--assign", "Cleo"])
                let id = try #require(added["id"] as? String)
                #expect(try await child.object(["reminders", "complete", id])["status"] as? String == "completed")

                let notHers = await parent.kith(["reminders", "undo", id])
                #expect(
                    notHers.exitCode == 1
                        && notHers.stderr == "error: Only the person who completed this reminder can undo it.\n",
                    "\(notHers)")
                let undone = await child.kith(["reminders", "undo", String(id.prefix(8))])
                #expect(undone.stdout.hasPrefix("Undone, pending again: \(id.prefix(8))  "), "\(undone)")
                #expect(!undone.stdout.contains("done by"), "\(undone)")
                let seen = try #require(try await parent.array(["reminders"]).first { $0["id"] as? String == id })
                #expect(seen["status"] as? String == "pending" && (seen["completedBy"] as? [String: Any]) == nil, "the server took it: \(seen)")
                let again = await child.kith(["reminders", "undo", id])
                #expect(again.stderr == "error: This reminder has no completion to undo.\n", "\(again)")
            }
        }
    }

    @Test("reminders are written offline, said so, and sent on the next sync")
    func offline() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let (parent, onlineChild, _) = try await Self.family(server, home: home)
                var child = onlineChild
                child.server = URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!
                let added = await child.kith([
                    "reminders", "add", "Feed the cat", "--due", Self.tomorrow, "--item", "Water",
                ])
                #expect(added.exitCode == 0, "\(added)")
                #expect(added.stderr.contains("Offline: changes are kept on this device"), "\(added)")
                #expect(try await child.array(["reminders"]).map { $0["title"] as? String } == ["Feed the cat"])
                let byEmail = await child.kith(["reminders", "--member", "someone@example.com"])
                #expect(byEmail.stderr.contains("offline, so emails can't be looked up"), "\(byEmail)")
                let shown = await child.kith(["family", "show"])
                #expect(shown.stdout.hasPrefix("Lovelaces (Europe/Berlin), you are a child"), "\(shown)")
                #expect(shown.stderr.contains("Offline: this device's copy"), "\(shown)")
                #expect(await parent.kith(["reminders"]).stdout == "No reminders.\n")

                child.server = server.url
                #expect(await child.kith(["sync"]).exitCode == 0)
                #expect(try await parent.array(["reminders"]).map { $0["title"] as? String } == ["Feed the cat"])
            }
        }
    }

    @Test("signed out, or in no family, the commands say what to do")
    func notInAFamily() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let laptop = Device(home: home, server: server.url)
                let signedOut = await laptop.kith(["reminders"])
                #expect(
                    signedOut.stderr == "error: You are not signed in. Run `kith account login` first.\n",
                    "\(signedOut)")
                try await laptop.signUp()
                let none = await laptop.kith(["family", "show"])
                #expect(
                    none.stderr.contains("You are not in a family. Create one with `kith family create NAME`"),
                    "\(none)")
                let json = await laptop.kith(["--json", "reminders", "add", "X", "--due", Self.tomorrow])
                #expect(json.stderr.contains("\"code\":\"not_in_family\""), "\(json)")
                let usage = await laptop.kith(["reminders", "add", "X", "--due", Self.tomorrow, "--every", "2"])
                #expect(
                    usage.exitCode == 64 && usage.stderr.contains("--due and --every don't go together"), "\(usage)")
                let badCode = await laptop.kith(["family", "join", "0OIL-1234"])
                #expect(badCode.stderr.contains("A join code looks like"), "\(badCode)")
            }
        }
    }

    static func email(_ device: Device) async throws -> String {
        let status = try await device.object(["status"])
        return try #require((status["user"] as? [String: Any])?["email"] as? String)
    }
}
