import Foundation
import KithCore
import KithTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
                #expect(
                    createdText.stdout.contains("server \(server.url.absoluteString)/dav/, user name \(email)"),
                    "the phone's apps are told how to sign in: \(createdText)")

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

    @Test("devices that get notifications: listed and removed")
    func devices() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                let laptop = Device(home: home, server: server.url)
                _ = try await laptop.signUp()
                let empty = await laptop.kith(["account", "devices"])
                #expect(empty.stdout.hasPrefix("No device gets notifications."), "\(empty)")

                // A browser subscribes itself through the API (RFC 8291's example keys).
                let token = try #require(
                    try await laptop.object(["account", "tokens", "create", "browser"])["token"] as? String)
                var request = URLRequest(url: server.url.appendingPathComponent("v1/push/subscriptions"))
                request.httpMethod = "POST"
                request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(
                    #"{"endpoint":"https://fcm.googleapis.com/fcm/send/abc","keys":{"p256dh":"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4","auth":"BTBZMqHH6r4Tts7J_aSIgg"},"kinds":["due"],"name":"Ada's phone"}"#
                        .utf8)
                let (body, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 201, "\(String(decoding: body, as: UTF8.self))")
                let id = try WireCoding.decoder().decode(WebPushDeviceDTO.self, from: body).id

                let listed = try #require(
                    try await laptop.object(["account", "devices", "list"])["devices"] as? [[String: Any]])
                #expect(listed.map { $0["name"] as? String } == ["Ada's phone"])
                #expect(listed.first?["kinds"] as? [String] == ["due"])
                let text = await laptop.kith(["account", "devices"])
                #expect(text.stdout.hasPrefix("\(id)  Ada's phone  (added "), "\(text)")
                #expect(text.stdout.hasSuffix("never notified; told: due)\n"), "\(text)")

                #expect(try await laptop.object(["account", "devices", "remove", id])["removed"] as? String == id)
                let again = await laptop.kith(["account", "devices", "remove", id])
                #expect(again.exitCode == 1, "\(again)")
                let notAnID = await laptop.kith(["account", "devices", "remove", "phone"])
                #expect(notAnID.exitCode == 64 && notAnID.stderr.contains("The id must be a device id"), "\(notAnID)")
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
