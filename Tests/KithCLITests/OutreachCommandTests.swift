import Foundation
import KithTestSupport
import Testing

/// `kith outreach …` on a profile that is not signed in: it works on this device alone, so no
/// server is needed; `SyncCommandTests` covers the sync around it.
@Suite("kith outreach: text and JSON")
struct OutreachCommandTests {
    @Test("a year's people: add, list, deliver, edit, delete")
    func people() async throws {
        try await withHome { home in
            let device = Device(home: home, server: nil)
            let year = try await device.object(["outreach", "year", "add", "2030"])
            #expect(year["name"] as? String == "2030" && year["selected"] as? Bool == false)
            #expect(await device.kith(["outreach", "year", "use", "2030"]).stdout == "Now showing 2030.\n")
            let years = await device.kith(["outreach", "years"])
            #expect(years.stdout.contains("* 2030\n"), "\(years)")

            let ada = try await device.object(
                ["outreach", "add", "--first", "Ada", "--last", "Lovelace", "--enterprise", "Analytical"])
            let id = try #require(ada["id"] as? String)
            #expect(ada["firstName"] as? String == "Ada" && ada["enterpriseName"] as? String == "Analytical")
            #expect(ada["delivered"] as? Bool == false && ada["deliveredAt"] == nil)
            let grace = await device.kith([
                "outreach", "add", "--first", "Grace", "--last", "Hopper", "--enterprise", "Navy",
            ])
            #expect(grace.stdout.hasPrefix("Added to 2030:\n"), "\(grace)")
            #expect(grace.stdout.hasSuffix("  [ ] Hopper, Grace (Navy)\n"), "\(grace)")

            // A unique prefix of the id names the person; the text shows it in lower case.
            let short = String(id.prefix(8))
            let delivered = await device.kith(["outreach", "deliver", short])
            #expect(
                delivered.stdout.hasPrefix("\(short.lowercased())  [x] Lovelace, Ada (Analytical)  delivered 20"),
                "\(delivered)")
            let commented = try await device.object(["outreach", "edit", short, "--comments", "Left at the front desk"])
            #expect(
                commented["comments"] as? String == "Left at the front desk" && commented["delivered"] as? Bool == true)

            let listing = try await device.object(["outreach", "list"])
            #expect((listing["year"] as? [String: Any])?["name"] as? String == "2030")
            let progress = try #require(listing["progress"] as? [String: Any])
            #expect(progress["delivered"] as? Int == 1 && progress["total"] as? Int == 2, "\(progress)")
            #expect((listing["contacts"] as? [[String: Any]])?.count == 2)
            let text = await device.kith(["outreach", "list", "--year", "2030"])
            let lines = text.stdout.split(separator: "\n")
            #expect(lines.first == "2030: 1 of 2 delivered", "\(text)")
            #expect(lines.contains { $0.hasSuffix("# Left at the front desk") }, "\(text)")

            let unknown = await device.kith(["outreach", "delete", "zzz"])
            #expect(unknown.exitCode == 1 && unknown.stderr == "error: No person with id zzz.\n", "\(unknown)")
            let unknownJSON = await device.kith(["--json", "outreach", "deliver", "zzz"])
            #expect(unknownJSON.stderr.contains("\"code\":\"not_found\""), "\(unknownJSON)")
            let deleted = await device.kith(["outreach", "delete", short])
            #expect(deleted.stdout == "Deleted Ada Lovelace. To take it back: kith outreach undo\n", "\(deleted)")
        }
    }

    @Test("CSV in and out, copy a year, rename and delete years")
    func csvAndYears() async throws {
        try await withHome { home in
            let device = Device(home: home, server: nil)
            _ = try await device.object(["outreach", "year", "add", "2030"])
            let file = home.appendingPathComponent("people.csv")
            let csv = """
                First Name,Last Name,Enterprise,Delivered,Delivered At,Comments
                Ada,Lovelace,Analytical,,,
                Grace,Hopper,Navy,,,"Ring twice"

                """
            try csv.write(to: file, atomically: true, encoding: .utf8)
            let imported = await device.kith(["outreach", "import", file.path, "--year", "2030"])
            #expect(imported.stdout == "Imported 2 people into 2030.\n", "\(imported)")

            let exported = await device.kith(["outreach", "export", "--year", "2030"])
            let rows = exported.stdout.split(whereSeparator: \.isNewline)
            #expect(rows.first == "First Name,Last Name,Enterprise,Delivered,Delivered At,Comments", "\(exported)")
            #expect(rows.count == 3 && rows.contains { $0.hasPrefix("Grace,Hopper,Navy,") }, "\(exported)")
            let exportedJSON = try await device.array(["outreach", "export", "--year", "2030"])
            #expect(Set(exportedJSON.compactMap { $0["lastName"] as? String }) == ["Lovelace", "Hopper"])

            let bad = home.appendingPathComponent("bad.csv")
            try "Name\nAda\n".write(to: bad, atomically: true, encoding: .utf8)
            let refused = await device.kith(["outreach", "import", bad.path, "--year", "2030"])
            #expect(refused.exitCode == 1 && refused.stderr.contains("header"), "\(refused)")

            let copied = await device.kith(["outreach", "copy-year", "2030", "2031"])
            #expect(copied.stdout == "Created 2031 with 2 people from 2030.\n", "\(copied)")
            let renamed = await device.kith(["outreach", "year", "rename", "2031", "2032"])
            #expect(renamed.stdout == "Renamed 2031 to 2032.\n", "\(renamed)")
            let deleted = try await device.object(["outreach", "year", "delete", "2032", "--yes"])
            #expect(deleted["deleted"] as? String == "2032", "\(deleted)")
            let noYear = await device.kith(["outreach", "list", "--year", "2032"])
            #expect(noYear.exitCode == 1 && noYear.stderr == "error: No year named 2032.\n", "\(noYear)")
        }
    }
}
