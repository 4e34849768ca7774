import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The days a person can write on the Food page: not one that has not begun where they are (the
/// address included), not one past the retention window; such a day says so instead of looking empty.
@Suite("Food page: days in the future or past the window")
struct NutritionDayLimitsTests {
    @Test(arguments: Engine.available)
    func aFutureDayIsRefusedAndSaysWhy(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, _) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
            let today = NutritionPagesTests.today(server)
            for day in [today.adding(days: 1), LocalDate("2030-01-01")!] {
                let page = try await browser.get(client, "/food?date=\(day)")
                #expect(page.text.contains("This day has not begun yet"))
                #expect(!page.text.contains(#"id="add-item-form""#), "no form to log on it")
                #expect(!page.text.contains("Nothing logged on this day yet."))
                let logged = try await browser.post(
                    client, "/food/items", form: ["date": day.description, "name": "Banana", "calories": "105"])
                #expect(logged.status == .unprocessableContent)
                #expect(logged.text.contains("\(day) is in the future; log a day once it has begun."))
            }
            let now = try await browser.get(client, "/food")
            #expect(!now.text.contains("Banana"), "nothing was logged")
            // The goal in the words of its label.
            let goal = try await browser.post(client, "/food/goal", form: ["dailyCalories": "100"])
            #expect(goal.text.contains("The daily goal must be between 500 and 50,000 calories."))
        }
    }

    @Test(arguments: Engine.available)
    func aDayPastTheWindowSaysNothingIsKept(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, _) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
            let old = NutritionPagesTests.today(server).adding(days: -120)
            let page = try await browser.get(client, "/food?date=\(old)")
            #expect(page.text.contains("Logs are kept for 90 days: this day can&#39;t be written any more."))
            #expect(page.text.contains("Nothing can be logged on this day."))
            #expect(!page.text.contains(#"id="add-item-form""#) && !page.text.contains("meal-log-form"))
        }
    }

    @Test(arguments: Engine.available)
    func whatIsLeftAddsUpWithWhatWasEaten(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, _) = try await NutritionPagesTests.signedUp(client, "ada@example.com")
            let today = NutritionPagesTests.today(server).description
            _ = try await browser.post(client, "/food/goal", form: ["dailyCalories": "2000", "date": today])
            _ = try await browser.post(
                client, "/food/items", form: ["date": today, "name": "Soup", "calories": "968.4"])
            let page = try await browser.get(client, "/food")
            #expect(page.text.contains(#"<strong id="total-calories">968</strong>"#))
            #expect(page.text.contains(#"<span id="remaining">1,032 kcal left</span>"#), "968 + 1,032 = 2,000")
        }
    }
}
