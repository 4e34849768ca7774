import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// A food form refused shows every problem at once, each next to its field, in its label's words.
@Suite("Food forms: every problem at once, in words")
struct NutritionFormProblemsTests {
    @Test(arguments: Engine.available)
    func everyRefusedFieldIsMarkedAtOnce(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, _) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
            let today = NutritionPagesTests.today(server).description
            let refused = try await browser.post(
                client, "/food/items",
                form: ["date": today, "name": " ", "calories": "lots", "protein": "10001", "fat": "-1", "carbs": "12"])
            #expect(refused.status == .unprocessableContent)
            let expected = [
                "food-name": "Enter the food&#39;s name.",
                "food-calories": "Calories must be a number, such as 250 or 12.5.",
                "food-protein": "Protein must be between 0 and 10,000 g.",
                "food-fat": "Fat must be between 0 and 10,000 g.",
            ]
            for (id, words) in expected {
                #expect(refused.text.contains(#"<p id="\#(id)-error" class="field-error">\#(words)</p>"#), "\(id)")
            }
            #expect(!refused.text.contains("food-carbs-error"), "only the refused fields")
            #expect(!refused.text.contains("calories must"), "no rule's words")

            _ = try await browser.post(client, "/food/items", form: ["date": today, "name": "Tea", "calories": "2"])
            let page = try await browser.get(client, "/food")
            let id = try #require(NutritionPagesTests.itemID(in: page.text, named: "Tea"))
            let edit = try await browser.post(
                client, "/food/items/\(id)", form: ["name": "", "calories": "60000", "servingSize": "x"])
            #expect(edit.status == .unprocessableContent)
            #expect(edit.text.contains("Enter the food&#39;s name."))
            #expect(edit.text.contains("Calories must be between 0 and 50,000."))
            #expect(edit.text.contains("The serving size must be a number, such as 250 or 12.5."))
            #expect(try await browser.get(client, "/food").text.contains(">Tea</span>"), "nothing was saved")
        }
    }
}
