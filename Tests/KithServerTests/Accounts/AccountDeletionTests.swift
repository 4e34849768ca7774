import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import SQLKit
import Testing

@testable import KithServer

@Suite("Account deletion")
struct AccountDeletionTests {
    @Test(arguments: Engine.available)
    func deletingAnAccountRemovesEveryRowAndFreesTheEmail(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let ada = try await client.signUp("ada@example.com")
            let bob = try await client.signUp("bob@example.com")
            let laptop = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            let pat = try await client.call(.post, "/v1/tokens", json: #"{"name":"script"}"#, token: ada.accessToken)
                .decode(PersonalTokenDTO.self)
            _ = try await client.call(.post, "/v1/auth/refresh", body: RefreshRequest(refreshToken: laptop.refreshToken))
            _ = try await client.call(.post, "/v1/auth/password-reset", json: #"{"email":"ada@example.com"}"#)
            _ = try await client.logIn("ada@example.com", "wrong password")
            _ = try await Outbox(dataDirectory: server.config.dataDirectory).waitForMails(1)
            let adaID = ada.user.id.uuidString.lowercased()

            let wrong = try await client.call(.delete, "/v1/me", json: #"{"password":"wrong password"}"#, token: ada.accessToken)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.error?.field == "password")
            let before = try await RowScanner.rows(mentioning: [adaID, "ada@example.com"], in: server.app.database)
            #expect(before.count >= 5, "\(before)")

            let deleted = try await client.call(.delete, "/v1/me", json: #"{"password":"correct horse"}"#, token: ada.accessToken)
            #expect(deleted.status == .noContent)
            let after = try await RowScanner.rows(mentioning: [adaID, "ada@example.com"], in: server.app.database)
            #expect(after.isEmpty, "rows of the deleted account remain: \(after)")
            let usedRefresh = try await server.app.database.run { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM used_refresh_tokens").first(decodingColumn: "n", as: Int.self)
            }
            #expect(usedRefresh == 0)

            for token in [ada.accessToken, pat.token ?? ""] {
                #expect(try await client.call(.get, "/v1/me", token: token).status == .unauthorized)
            }
            #expect(try await client.logIn("ada@example.com", "correct horse").status == .unauthorized)
            // Bob is untouched.
            #expect(try await client.call(.get, "/v1/me", token: bob.accessToken).status == .ok)
            // The email is free again, for a brand-new account.
            let reborn = try await client.signUp("ada@example.com", "another password")
            #expect(reborn.user.id != ada.user.id)
        }
    }
}
