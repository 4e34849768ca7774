import Foundation
import KithTestSupport
import Testing

/// `kith backup` and `kith restore` on a server's SQLite data directory.
@Suite("kith backup and kith restore: text and JSON")
struct BackupCommandTests {
    @Test(
        "a backup while the server runs; a restore refused until it stops, then done; the data directory from KITH_DATA"
    )
    func backupAndRestore() async throws {
        try await withHome { home in
            let data = home.appendingPathComponent("data")
            let copy = home.appendingPathComponent("copy.sqlite").path
            try await TestServer.run(data: data) { server in
                try await Device(home: home, server: server.url).signUp()
                let made = try await kith(["backup", copy, "--data", data.path, "--json"]).object()
                #expect(made["file"] as? String == copy && made["users"] as? Int == 1, "\(made)")
                #expect((made["bytes"] as? Int ?? 0) > 0)
                let again = await kith(["backup", copy, "--data", data.path])
                #expect(again.exitCode == 1 && again.stderr.hasPrefix("error: "), "the file exists: \(again)")

                let busy = await kith(["restore", copy], environment: ["KITH_DATA": data.path])
                #expect(busy.exitCode == 1 && busy.stdout.isEmpty, "\(busy)")
            }
            let restored = await kith(["restore", copy], environment: ["KITH_DATA": data.path])
            let database = data.appendingPathComponent("kith.sqlite").path
            #expect(
                restored.stdout
                    == "Restored \(copy) to \(database): 1 account(s). Start the server with `kith serve`.\n",
                "\(restored)")
            let postgres = await kith(
                ["backup", copy], environment: ["KITH_DATABASE_URL": "postgres://kith@localhost:5432/kith"])
            #expect(postgres.exitCode == 64 && postgres.stderr.contains("pg_dump"), "\(postgres)")
        }
    }
}
