import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The account page says why an account can't be deleted yet, with the way out, before the person
/// tries: the only parent of a family with other members. And a token's Revoke asks first.
@Suite("Account page: what stands in the way of deleting the account")
struct AccountDeletionBlockerTests {
    @Test(arguments: Engine.available)
    func theOnlyParentIsToldAndTheFormIsNotOffered(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var (parent, _) = try await NutritionPagesTests.signedUp(client, "marie@example.com")
            var (child, _) = try await NutritionPagesTests.signedUp(client, "irene@example.com")
            _ = try await parent.post(
                client, "/family/create", form: ["name": "Curie", "timeZone": "Europe/Paris", "displayName": "Marie"])
            let alone = try await parent.get(client, "/account")
            #expect(
                alone.text.contains(#"id="delete-form""#) && !alone.text.contains("delete-blocked"),
                "alone: the family goes with the account")

            let members = try await parent.post(client, "/family/codes", form: ["role": "child"])
            let code = try #require(FamilyPagesTests.code(in: members.text))
            _ = try await child.post(client, "/family/join", form: ["code": code, "displayName": "Irène"])
            let blocked = try await parent.get(client, "/account")
            #expect(
                blocked.text.contains(
                    "You are the only parent of Curie, so deleting your account would leave its other member without a parent."
                ))
            #expect(blocked.text.contains(#"href="/family/members""#))
            #expect(!blocked.text.contains(#"id="delete-form""#))
            // The server refuses it anyway, whatever a page sends.
            let refused = try await parent.post(
                client, "/account/delete", form: ["deletePassword": "correct horse", "confirm": "yes"])
            #expect(refused.status == .conflict || refused.status == .unprocessableContent, "\(refused.status)")
            #expect(try await parent.get(client, "/account").status == .ok, "still signed in: nothing was deleted")

            let childPage = try await child.get(client, "/account")
            #expect(childPage.text.contains(#"id="delete-form""#) && !childPage.text.contains("delete-blocked"))
        }
    }
}
