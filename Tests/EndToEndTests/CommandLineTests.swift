import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The `kith account` commands, run as real processes against a live in-process server. Each
/// `--profile` is a separate device with its own session under `$KITH_HOME/profiles/`.
@Suite("kith account (command line)")
struct CommandLineTests {
    @Test("sign up, who am I, second device, tokens, password change, wrong password, logout, delete")
    func accountLifecycle() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-cli")
            defer { try? FileManager.default.removeItem(at: home) }
            let env = ["KITH_HOME": home.path]
            let email = uniqueEmail("cli")
            let serverURL = server.url.absoluteString
            let password = "first cli password"

            // Sign up on the "laptop" profile; the password comes from stdin, never argv.
            let signup = try await runKith(
                ["account", "signup", email, "--server", serverURL, "--profile", "laptop", "--password-stdin", "--json"],
                environment: env, stdin: password + "\n")
            try #require(signup.status == 0, "\(signup)")
            let user = try signup.json()
            #expect(user["email"] as? String == email)
            let userID = try #require(user["id"] as? String)
            #expect(userID == userID.lowercased())

            let sessionFile = home.appendingPathComponent("profiles/laptop/session.json")
            let attributes = try FileManager.default.attributesOfItem(atPath: sessionFile.path)
            let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue & 0o777
            #expect(mode == 0o600, "the session file must be readable by its owner only, is \(String(mode, radix: 8))")
            let stored = try #require(try FileSessionStore(fileURL: sessionFile).load())
            #expect(stored.user.email == email)
            #expect(stored.serverURL.absoluteString == serverURL)

            // The profile remembers its server.
            let whoami = try await runKith(["account", "whoami", "--profile", "laptop", "--json"], environment: env)
            try #require(whoami.status == 0, "\(whoami)")
            #expect(try whoami.json()["email"] as? String == email)
            let whoamiText = try await runKith(["account", "whoami", "--profile", "laptop"], environment: env)
            #expect(whoamiText.status == 0)
            #expect(whoamiText.stdout.contains(email))
            #expect(whoamiText.stdout.contains("server: \(serverURL)"))

            // A second device signs in with the password in KITH_PASSWORD.
            var phoneEnv = env
            phoneEnv["KITH_PASSWORD"] = password
            let login = try await runKith(
                ["account", "login", email, "--server", serverURL, "--profile", "phone"], environment: phoneEnv)
            try #require(login.status == 0, "\(login)")
            #expect(login.stdout.contains("Signed in as \(email)."))
            let phoneWhoami = try await runKith(["account", "whoami", "--profile", "phone", "--json"], environment: env)
            #expect(phoneWhoami.status == 0, "\(phoneWhoami)")

            // Personal access tokens.
            let create = try await runKith(
                ["account", "tokens", "create", "ci", "--profile", "laptop", "--json"], environment: env)
            try #require(create.status == 0, "\(create)")
            let created = try create.json()
            let secret = try #require(created["token"] as? String)
            #expect(secret.hasPrefix("kpt_"))
            #expect(created["name"] as? String == "ci")
            let tokenID = try #require(created["id"] as? String)

            let list = try await runKith(["account", "tokens", "list", "--profile", "laptop", "--json"], environment: env)
            try #require(list.status == 0, "\(list)")
            let tokens = try #require(try list.json()["tokens"] as? [[String: Any]])
            #expect(tokens.count == 1)
            #expect(tokens.first?["id"] as? String == tokenID)
            #expect(tokens.first?["name"] as? String == "ci")
            #expect(tokens.first?["token"] == nil, "listing never shows a token's secret")
            #expect(!list.stdout.contains(secret))

            let revoke = try await runKith(["account", "tokens", "revoke", tokenID, "--profile", "laptop"], environment: env)
            #expect(revoke.status == 0, "\(revoke)")
            #expect(revoke.stdout.contains("Token revoked."))
            let emptyList = try await runKith(["account", "tokens", "--profile", "laptop"], environment: env)
            #expect(emptyList.status == 0, "\(emptyList)")
            #expect(emptyList.stdout.contains("No tokens."))

            // Changing the password on the laptop signs the phone out.
            let newPassword = "second cli password"
            let change = try await runKith(
                ["account", "password", "--profile", "laptop", "--password-stdin"], environment: env,
                stdin: "\(password)\n\(newPassword)\n")
            try #require(change.status == 0, "\(change)")
            #expect(change.stdout.contains("Password changed."))
            let laptopStill = try await runKith(["account", "whoami", "--profile", "laptop"], environment: env)
            #expect(laptopStill.status == 0, "the device that changed the password stays signed in\n\(laptopStill)")
            let phoneOut = try await runKith(["account", "whoami", "--profile", "phone"], environment: env)
            #expect(phoneOut.status == 1, "\(phoneOut)")
            #expect(phoneOut.stderr.lowercased().contains("session expired"), "\(phoneOut)")
            #expect(phoneOut.stdout.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("profiles/phone/session.json").path))

            // A wrong password: a plain sentence, or the wire error with --json.
            let wrong = try await runKith(
                ["account", "login", email, "--profile", "phone", "--server", serverURL, "--password-stdin"], environment: env,
                stdin: password + "\n")
            #expect(wrong.status == 1, "\(wrong)")
            #expect(wrong.stderr.contains("incorrect"), "\(wrong)")
            let wrongJSON = try await runKith(
                ["account", "login", email, "--profile", "phone", "--server", serverURL, "--password-stdin", "--json"],
                environment: env, stdin: password + "\n")
            #expect(wrongJSON.status == 1, "\(wrongJSON)")
            let wire = try WireCoding.decoder().decode(APIErrorBody.self, from: Data(wrongJSON.stderr.utf8))
            #expect(wire.error.code == ErrorCode.invalidCredentials.rawValue)
            #expect(wire.error.message == "The email or password is incorrect.")

            // Sign the phone in again, then out: its session file is removed.
            let relogin = try await runKith(
                ["account", "login", email, "--profile", "phone", "--server", serverURL, "--password-stdin"], environment: env,
                stdin: newPassword + "\n")
            try #require(relogin.status == 0, "\(relogin)")
            let phoneFile = home.appendingPathComponent("profiles/phone/session.json")
            #expect(FileManager.default.fileExists(atPath: phoneFile.path))
            let logout = try await runKith(["account", "logout", "--profile", "phone"], environment: env)
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stdout.contains("Signed out."))
            #expect(!FileManager.default.fileExists(atPath: phoneFile.path))
            let afterLogout = try await runKith(["account", "whoami", "--profile", "phone"], environment: env)
            #expect(afterLogout.status == 1)
            #expect(afterLogout.stderr.contains("not signed in"), "\(afterLogout)")

            // Deleting needs --yes; without it nothing happens.
            let refused = try await runKith(
                ["account", "delete", "--profile", "laptop", "--password-stdin"], environment: env, stdin: newPassword + "\n")
            #expect(refused.status != 0, "\(refused)")
            #expect(refused.stderr.contains("--yes"), "\(refused)")
            let stillThere = try await runKith(["account", "whoami", "--profile", "laptop", "--json"], environment: env)
            #expect(stillThere.status == 0, "\(stillThere)")
            #expect(try stillThere.json()["email"] as? String == email)

            let delete = try await runKith(
                ["account", "delete", "--yes", "--profile", "laptop", "--password-stdin", "--json"], environment: env,
                stdin: newPassword + "\n")
            #expect(delete.status == 0, "\(delete)")
            #expect(try delete.json()["deleted"] as? Bool == true)
            #expect(!FileManager.default.fileExists(atPath: sessionFile.path))
            let afterDelete = try await runKith(["account", "whoami", "--profile", "laptop"], environment: env)
            #expect(afterDelete.status == 1, "\(afterDelete)")
            let loginAfterDelete = try await runKith(
                ["account", "login", email, "--profile", "laptop", "--server", serverURL, "--password-stdin"],
                environment: env, stdin: newPassword + "\n")
            #expect(loginAfterDelete.status == 1, "\(loginAfterDelete)")
            #expect(loginAfterDelete.stderr.contains("incorrect"))
        }
    }

    @Test("a password can't be given as an argument")
    func passwordArgumentRefused() async throws {
        let home = try makeTemporaryDirectory("kith-e2e-cli")
        defer { try? FileManager.default.removeItem(at: home) }
        let run = try await runKith(
            ["account", "login", "someone@example.com", "hunter2-secret", "--server", "http://127.0.0.1:9"],
            environment: ["KITH_HOME": home.path])
        #expect(run.status != 0, "\(run)")
        #expect(run.status != 1, "a usage error, not a failed request\n\(run)")
        #expect(run.stderr.lowercased().contains("unexpected argument"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("profiles").path))
    }

    @Test("--password-stdin with too few lines is a clear error")
    func passwordStdinTooShort() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-cli")
            defer { try? FileManager.default.removeItem(at: home) }
            let env = ["KITH_HOME": home.path]
            let email = uniqueEmail("stdin")
            let signup = try await runKith(
                ["account", "signup", email, "--server", server.url.absoluteString, "--password-stdin"], environment: env,
                stdin: "long enough password\n")
            try #require(signup.status == 0, "\(signup)")
            let change = try await runKith(["account", "password", "--password-stdin"], environment: env, stdin: "only one line\n")
            #expect(change.status != 0, "\(change)")
            #expect(change.stderr.contains("2 line(s)"), "\(change)")
        }
    }

    @Test("a mistyped current password is reported and keeps the profile signed in")
    func wrongCurrentPassword() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-cli")
            defer { try? FileManager.default.removeItem(at: home) }
            let env = ["KITH_HOME": home.path]
            let email = uniqueEmail("mistype")
            let signup = try await runKith(
                ["account", "signup", email, "--server", server.url.absoluteString, "--password-stdin"], environment: env,
                stdin: "long enough password\n")
            try #require(signup.status == 0, "\(signup)")

            let change = try await runKith(
                ["account", "password", "--password-stdin"], environment: env, stdin: "not my password\nnew password 123\n")
            #expect(change.status == 1, "\(change)")
            #expect(change.stderr.contains("incorrect"), "expected 'The current password is incorrect.'\n\(change)")
            let whoami = try await runKith(["account", "whoami"], environment: env)
            #expect(whoami.status == 0, "a typo in the current password must not sign the profile out\n\(whoami)")
        }
    }

    @Test("reset a forgotten password with the mailed token")
    func resetPassword() async throws {
        try await LiveServer.run { server in
            let home = try makeTemporaryDirectory("kith-e2e-cli")
            defer { try? FileManager.default.removeItem(at: home) }
            let env = ["KITH_HOME": home.path]
            let serverURL = server.url.absoluteString
            let email = uniqueEmail("forgot")
            try await server.client().signUp(email: email, password: "forgotten password")

            let request = try await runKith(["account", "reset-password", email, "--server", serverURL], environment: env)
            #expect(request.status == 0, "\(request)")
            #expect(request.stdout.contains("If an account exists for \(email), a reset link is on its way."))
            let mail = try await server.outbox.waitForMail(to: email)
            let link = try #require(Outbox.resetLink(in: mail))
            let token = try #require(
                URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)

            let confirm = try await runKith(
                ["account", "reset-password", "--token", token, "--server", serverURL, "--password-stdin"], environment: env,
                stdin: "remembered password\n")
            #expect(confirm.status == 0, "\(confirm)")
            #expect(confirm.stdout.contains("Password set."))
            #expect(try await server.client().signIn(email: email, password: "remembered password").email == email)

            let again = try await runKith(
                ["account", "reset-password", "--token", token, "--server", serverURL, "--password-stdin"], environment: env,
                stdin: "third password 123\n")
            #expect(again.status == 1, "a reset link works once\n\(again)")
            #expect(again.stderr.contains("not valid or was already used"), "\(again)")
        }
    }

    @Test("a profile name can't point outside KITH_HOME")
    func profileNames() async throws {
        let home = try makeTemporaryDirectory("kith-e2e-cli")
        defer { try? FileManager.default.removeItem(at: home) }
        for profile in ["..", "../escape", "a/b", ""] {
            let run = try await runKith(
                ["account", "whoami", "--profile", profile, "--server", "http://127.0.0.1:9"],
                environment: ["KITH_HOME": home.path])
            #expect(run.status != 0 && run.status != 1, "\(profile): \(run)")
            #expect(run.stderr.contains("--profile takes letters, digits"), "\(profile): \(run)")
        }
    }

    @Test("a server that is down is reported in one line")
    func serverDown() async throws {
        let home = try makeTemporaryDirectory("kith-e2e-cli")
        defer { try? FileManager.default.removeItem(at: home) }
        let port = try closedLoopbackPort()
        let run = try await runKith(
            ["account", "login", "someone@example.com", "--server", "http://127.0.0.1:\(port)", "--password-stdin"],
            environment: ["KITH_HOME": home.path], stdin: "whatever password\n")
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr == "error: Cannot connect. Check your internet and try again.\n", "\(run)")
    }
}
