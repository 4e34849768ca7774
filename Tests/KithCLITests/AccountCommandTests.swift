import Foundation
import KithCore
import KithTestSupport
import Testing

/// `kith account …`: what people read, and what scripts parse with `--json`.
@Suite("kith account: text and JSON")
struct AccountCommandTests {
    @Test("sign up, who am I, tokens, log out")
    func accountAndTokens() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let laptop = Device(home: home, server: server.url)
                let email = try await laptop.signUp()

                let whoami = try await laptop.object(["account", "whoami"])
                #expect(whoami["email"] as? String == email)
                let id = try #require(whoami["id"] as? String)
                #expect(id == id.lowercased())
                let text = await laptop.kith(["account", "whoami"])
                #expect(text.stdout == "\(email)\nid: \(id)\nserver: \(server.url.absoluteString)\n", "\(text)")

                let created = try await laptop.object(["account", "tokens", "create", "backup script"])
                let secret = try #require(created["token"] as? String)
                #expect(secret.hasPrefix("kpt_"))
                #expect(created["name"] as? String == "backup script")
                let tokenID = try #require(created["id"] as? String)
                let createdText = await laptop.kith(["account", "tokens", "create", "ci"])
                #expect(
                    createdText.stdout.hasPrefix("Created token \"ci\" ("), "\(createdText)")
                #expect(createdText.stdout.contains("Copy it now, it is not shown again:\nkpt_"), "\(createdText)")

                let listed = try #require(
                    try await laptop.object(["account", "tokens", "list"])["tokens"] as? [[String: Any]])
                #expect(Set(listed.compactMap { $0["name"] as? String }) == ["backup script", "ci"])
                #expect(listed.allSatisfy { $0["token"] == nil }, "a list never shows a token's secret")
                let listText = await laptop.kith(["account", "tokens"])
                let line = try #require(listText.stdout.split(separator: "\n").first { $0.contains("backup script") })
                #expect(line.hasPrefix("\(tokenID)  backup script  (created "), "\(listText)")
                #expect(line.hasSuffix(", never used)"), "\(listText)")

                #expect(
                    try await laptop.object(["account", "tokens", "revoke", tokenID])["revoked"] as? String == tokenID)
                let notAnID = await laptop.kith(["account", "tokens", "revoke", "first"])
                #expect(notAnID.exitCode == 64 && notAnID.stderr.contains("The id must be a token id"), "\(notAnID)")

                let logout = await laptop.kith(["account", "logout"])
                #expect(logout.stdout == "Signed out.\n", "\(logout)")
                let signedOut = await laptop.kith(["--json", "account", "whoami"])
                #expect(signedOut.exitCode == 1 && signedOut.stdout.isEmpty, "\(signedOut)")
                let wire = try WireCoding.decoder().decode(APIErrorBody.self, from: Data(signedOut.stderr.utf8))
                #expect(wire.error.code == "not_signed_in")
            }
        }
    }

    @Test("passwords come from the standard input or the environment given; failures are one line, exit 1")
    func passwords() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let laptop = Device(home: home, server: server.url)
                let email = try await laptop.signUp(password: "first password")
                var phone = Device("phone", home: home, server: server.url)
                phone.environment["KITH_PASSWORD"] = "first password"
                let login = await phone.kith(["account", "login", email])
                #expect(login.stdout == "Signed in as \(email).\n", "\(login)")

                let wrong = await laptop.kith(["account", "login", email, "--password-stdin"], input: "not it\n")
                #expect(wrong.exitCode == 1 && wrong.stdout.isEmpty, "\(wrong)")
                #expect(wrong.stderr == "error: The email or password is incorrect.\n", "\(wrong)")
                let wrongJSON = await laptop.kith(
                    ["--json", "account", "login", email, "--password-stdin"], input: "not it\n")
                let wire = try WireCoding.decoder().decode(APIErrorBody.self, from: Data(wrongJSON.stderr.utf8))
                #expect(wire.error.code == ErrorCode.invalidCredentials.rawValue, "\(wrongJSON)")

                let change = await laptop.kith(
                    ["account", "password", "--password-stdin"], input: "first password\nsecond password\n")
                #expect(change.stdout == "Password changed. Other devices were signed out.\n", "\(change)")
                let phoneAfter = await phone.kith(["account", "whoami"])
                #expect(phoneAfter.exitCode == 1, "\(phoneAfter)")
                #expect(phoneAfter.stderr.lowercased().contains("session expired"), "\(phoneAfter)")

                let reset = await phone.kith(["account", "reset-password", email])
                #expect(reset.stdout == "If an account exists for \(email), a reset link is on its way.\n", "\(reset)")
                _ = try await server.outbox.waitForMail(to: email)

                var deleting = laptop
                deleting.environment["KITH_PASSWORD"] = "second password"
                let deleted = try await deleting.object(["account", "delete", "--yes"])
                #expect(deleted["deleted"] as? Bool == true)
                #expect(
                    !FileManager.default.fileExists(
                        atPath: laptop.directory.appendingPathComponent("session.json").path))
            }
        }
    }
}
