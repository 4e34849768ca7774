import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// `kith outreach` as real processes: offline-first commands on profiles of one account.
@Suite("kith outreach (command line)")
struct OutreachCommandLineTests {
    struct Device {
        let profile: String
        let home: URL
        var server: URL

        func kith(_ arguments: [String], stdin: String? = nil) async throws -> KithRun {
            try await runKith(
                arguments + ["--server", server.absoluteString, "--profile", profile],
                environment: ["KITH_HOME": home.path],
                stdin: stdin)
        }

        func json(_ arguments: [String]) async throws -> Any {
            let run = try await kith(arguments + ["--json"])
            try #require(run.status == 0, "\(arguments): \(run)")
            return try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
        }

        func listed(_ year: String) async throws -> [[String: Any]] {
            let listing = try #require(try await json(["outreach", "list", "--year", year]) as? [String: Any])
            return try #require(listing["contacts"] as? [[String: Any]])
        }
    }

    @Test("two offline profiles: one delivers, the other comments; after syncing both see both")
    func offlineDeliveryAndCommentConverge() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-outreach")
            defer { try? FileManager.default.removeItem(at: home) }
            var laptop = Device(profile: "laptop", home: home, server: server.url)
            var phone = Device(profile: "phone", home: home, server: server.url)
            let email = uniqueEmail("outreach")
            #expect(
                try await laptop.kith(["account", "signup", email, "--password-stdin"], stdin: "outreach password\n")
                    .status == 0)
            #expect(
                try await phone.kith(["account", "login", email, "--password-stdin"], stdin: "outreach password\n")
                    .status == 0)

            _ = try await laptop.json(["outreach", "year", "add", "2030"])
            _ = try await laptop.json(["outreach", "year", "use", "2030"])
            let ada = try #require(
                try await laptop.json([
                    "outreach", "add", "--first", "Ada", "--last", "Lovelace", "--enterprise", "Analytical",
                ])
                    as? [String: Any])
            let id = try #require(ada["id"] as? String)
            #expect(
                try await phone.listed("2030").map { $0["firstName"] as? String } == ["Ada"],
                "the phone syncs before listing")
            let years = try #require(try await phone.json(["outreach", "years"]) as? [[String: Any]])
            #expect(
                years.first { $0["selected"] as? Bool == true }?["name"] as? String == "2030",
                "the selected year follows the account")

            // Both lose the server; each changes the same person.
            let nowhere = URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!
            laptop.server = nowhere
            phone.server = nowhere
            let delivered = try await laptop.kith(["outreach", "deliver", String(id.prefix(8))])
            #expect(delivered.status == 0, "\(delivered)")
            #expect(delivered.stderr.contains("Offline"), "\(delivered)")
            #expect(try await phone.kith(["outreach", "edit", id, "--comments", "Met at the fair"]).status == 0)

            laptop.server = server.url
            phone.server = server.url
            for device in [laptop, phone, laptop] { #expect(try await device.kith(["sync"]).status == 0) }
            for device in [laptop, phone] {
                let person = try #require(try await device.listed("2030").first)
                #expect(person["delivered"] as? Bool == true, "\(device.profile)")
                #expect(person["deliveredAt"] is String, "\(device.profile)")
                #expect(person["comments"] as? String == "Met at the fair", "\(device.profile)")
            }
            let text = try await laptop.kith(["outreach", "list", "--year", "2030"])
            #expect(text.stdout.contains("2030: 1 of 1 delivered"), "\(text)")
            #expect(text.stdout.contains("[x] Lovelace, Ada (Analytical)"), "\(text)")
            #expect(text.stdout.contains("# Met at the fair"), "\(text)")
        }
    }

    @Test("years, import and export, copy-year, and clear refusals, signed out and offline")
    func yearsAndFilesWithoutAServer() async throws {
        let home = try makeTemporaryDirectory("kith-e2e-outreach")
        defer { try? FileManager.default.removeItem(at: home) }
        let device = Device(
            profile: "solo", home: home, server: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!)
        _ = try await device.json(["outreach", "year", "add", "2031"])
        let csv = home.appendingPathComponent("people.csv")
        try Data(
            "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments\r\nGrace,Hopper,Navy,yes,2031-01-02T03:04:05Z,\"compilers, COBOL\"\r\nAlan,Turing,Bletchley,no,,\r\n"
                .utf8
        ).write(to: csv)
        let imported = try #require(
            try await device.json(["outreach", "import", csv.path, "--year", "2031"]) as? [String: Any])
        #expect(imported["imported"] as? Int == 2)
        let exported = try await device.kith(["outreach", "export", "--year", "2031"])
        #expect(
            exported.stdout.contains("Grace,Hopper,Navy,yes,2031-01-02T03:04:05.000Z,\"compilers, COBOL\"\r\n"),
            "\(exported)")

        // A bad line is skipped and named in words; the good ones, with semicolons, come in.
        let bad = home.appendingPathComponent("bad.csv")
        try Data(
            "First Name;Last Name;Enterprise;Delivered;Delivered At;Comments\nAda;;X;no;;\nKatherine;Johnson;NASA;no;;\n"
                .utf8
        )
        .write(to: bad)
        let partly = try await device.kith(["outreach", "import", bad.path, "--year", "2031"])
        #expect(partly.status == 0, "\(partly)")
        #expect(
            partly.stdout == "Imported 1 person into 2031; 1 line was skipped.\nLine 2: Enter a last name.\n",
            "\(partly)")
        let answer = try #require(
            try await device.json(["outreach", "import", bad.path, "--year", "2031"]) as? [String: Any])
        let skipped = try #require(answer["skipped"] as? [[String: Any]])
        #expect(skipped.first?["line"] as? Int == 2 && skipped.first?["message"] as? String == "Enter a last name.")
        let notFile = home.appendingPathComponent("names.csv")
        try Data("Name,Company\nAda,X\n".utf8).write(to: notFile)
        let refused = try await device.kith(["outreach", "import", notFile.path, "--year", "2031"])
        #expect(refused.status == 1 && refused.stderr.hasPrefix("error: Line 1: the first row must be the header"))

        _ = try await device.json(["outreach", "copy-year", "2031", "2032"])
        let copied = try await device.listed("2032")
        #expect(copied.map { $0["delivered"] as? Bool } == [false, false, false])
        let confirm = try await device.kith(["outreach", "year", "delete", "2031"])
        #expect(confirm.status != 0 && confirm.stderr.contains("--yes"), "\(confirm)")
        #expect(try await device.kith(["outreach", "year", "delete", "2031", "--yes"]).status == 0)
        let unknown = try await device.kith(["outreach", "deliver", "ffffffff"])
        #expect(unknown.stderr == "error: No person with id ffffffff.\n", "\(unknown)")
    }

    @Test("search a year, tick or delete many people at once, and undo")
    func manyAtOnceWithUndo() async throws {
        let home = try makeTemporaryDirectory("kith-e2e-outreach-many")
        defer { try? FileManager.default.removeItem(at: home) }
        let device = Device(
            profile: "solo", home: home, server: URL(string: "http://127.0.0.1:\(try closedLoopbackPort())")!)
        _ = try await device.json(["outreach", "year", "add", "2033"])
        var ids: [String] = []
        for (first, last, enterprise) in [
            ("Ada", "Lovelace", "Analytical"), ("Grace", "Hopper", "Navy"), ("Jürgen", "Müller", "Bäckerei"),
        ] {
            let person = try #require(
                try await device.json([
                    "outreach", "add", "--first", first, "--last", last, "--enterprise", enterprise, "--year", "2033",
                ]) as? [String: Any])
            ids.append(try #require(person["id"] as? String))
        }
        let found = try await device.kith(["outreach", "list", "--year", "2033", "--search", "muller"])
        #expect(found.stdout.hasPrefix("2033: 0 of 3 delivered (1 shown)\n"), "\(found)")
        #expect(found.stdout.contains("Müller, Jürgen") && !found.stdout.contains("Lovelace"), "\(found)")

        let ticked = try await device.kith(["outreach", "deliver", ids[0], ids[1]])
        #expect(ticked.stdout.hasPrefix("Marked 2 people delivered."), "\(ticked)")
        let delivered = try await device.kith(["outreach", "list", "--year", "2033", "--delivered"])
        #expect(delivered.stdout.contains("Lovelace") && !delivered.stdout.contains("Müller"), "\(delivered)")
        let undone = try await device.kith(["outreach", "undo"])
        #expect(undone.stdout == "Undone: 2 people are as they were.\n", "\(undone)")
        #expect(try await device.listed("2033").allSatisfy { $0["delivered"] as? Bool == false })

        let deleted = try await device.kith(["outreach", "delete", ids[1], ids[2]])
        #expect(deleted.stdout.hasPrefix("Deleted 2 people."), "\(deleted)")
        #expect(try await device.listed("2033").count == 1)
        #expect(try await device.kith(["outreach", "undo"]).stdout == "Undone: 2 people are back.\n")
        #expect(
            try await device.listed("2033").map { $0["lastName"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == [
                "Hopper", "Lovelace", "Müller",
            ])
        let again = try await device.kith(["outreach", "undo"])
        #expect(again.status == 1 && again.stderr == "error: There is nothing to undo.\n", "\(again)")
    }
}
