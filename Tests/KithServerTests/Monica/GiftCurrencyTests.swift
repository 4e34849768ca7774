import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Each account writes its gifts' values in the currency it chose on the account page: `/api/me`'s
/// `currency` and every gift's `amount_with_currency` follow it, for that account only. On every engine.
@Suite("Contacts: the currency of gifts")
struct GiftCurrencyTests {
    @Test(arguments: Engine.available)
    func theAccountsCurrencyWritesItsGiftsValues(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { _, client in
            var browser = try await ContactsPagesTests.signedUp(client, "ada@example.com")
            let session = try await client.logIn("ada@example.com", "correct horse").decode(AuthSessionResponse.self)
            let ada = MonicaUser(client: client, token: session.accessToken)
            let bob = try await MonicaHarness.user(client, "bob@example.com")
            let contact = try await ada.contact("Charles")
            let gift = try #require(
                try await ada.post(
                    "/api/gifts", ["contact_id": .int(contact), "name": "A book", "status": "idea", "amount": 12.5]
                ).dataID)
            #expect(try await ada.get("/api/gifts/\(gift)").data?["amount_with_currency"] == "$12.50")
            let page = try await browser.get(client, "/account")
            #expect(page.text.contains(#"<option value="USD" selected>US Dollar (USD)</option>"#))

            let saved = try await browser.post(client, "/account/currency", form: ["currency": "eur"])
            #expect(saved.status == .ok, "\(saved.text.prefix(400))")
            #expect(saved.text.contains("values are now in Euro (EUR)."))
            #expect(saved.text.contains(#"<option value="EUR" selected>Euro (EUR)</option>"#))
            #expect(try await ada.get("/api/gifts/\(gift)").data?["amount_with_currency"] == "€12.50")
            let me = try await ada.get("/api/me")
            #expect(me.data?["currency"]?["iso"] == "EUR" && me.data?["currency"]?["symbol"] == "€")
            #expect(me.data?["currency"]?["id"] == .int(4))
            let contactGifts = try await ada.get("/api/contacts/\(contact)/gifts")
            #expect(contactGifts.data?[0]?["amount_with_currency"] == "€12.50")

            // Another account keeps its own.
            #expect(try await bob.get("/api/me").data?["currency"]?["iso"] == "USD")

            // A code not on the list is refused next to the field, and nothing changes.
            let refused = try await browser.post(client, "/account/currency", form: ["currency": "XYZ"])
            #expect(
                refused.status == .unprocessableContent && refused.text.contains("Choose a currency from the list."))
            #expect(try await ada.get("/api/me").data?["currency"]?["iso"] == "EUR")
        }
    }
}
