import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What a calorie log is expected to do every day, on the /food pages: amounts that scale, the
/// day's meals, copying a meal or a day, recent and favourite foods, custom meals edited after.
@Suite("Nutrition pages: everyday use")
struct NutritionEverydayPagesTests {
    typealias Pages = NutritionPagesTests

    @Test(arguments: Engine.available)
    func amountsScaleTheNumbersAndMealsGroupTheDay(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Pages.signedUp(client, "ada@example.com")
            let today = Pages.today(server)
            // 150 g of a food known per 100 g, to dinner.
            let rice = try await browser.post(
                client, "/food/items",
                form: [
                    "date": today.description, "source": "search", "name": "Rice", "calories": "130", "protein": "2.7",
                    "servingSize": "100", "servingUnit": "g", "amount": "150", "mealOfDay": "dinner",
                ])
            #expect(rice.status == .found)
            #expect(try await browser.get(client, try #require(rice.headers[.location])).text.contains("Added Rice to dinner."))
            // Two bananas, to the meal it is time for (the test clock reads 11:06 UTC: lunch).
            let bananas = try await browser.post(
                client, "/food/items",
                form: [
                    "date": today.description, "name": "Banana", "calories": "105", "servingSize": "1",
                    "servingUnit": "medium", "amount": "2",
                ])
            #expect(try await browser.get(client, try #require(bananas.headers[.location])).text.contains("Added Banana to lunch."))

            let items = Pages.live(try await Pages.pulled(client, device), NutritionEntities.item)
            let stored = try #require(items.first { $0.fields["name"] == .string("Rice") })
            #expect(stored.fields["calories"] == .double(195) && stored.fields["servings"] == .double(1.5))
            #expect(stored.fields["protein"] == .double(4.05) && stored.fields["mealOfDay"] == .string("dinner"))

            let page = try await browser.get(client, "/food?date=\(today)").text
            #expect(page.contains(#"<strong id="total-calories">405</strong>"#), "195 + 210")
            #expect(page.contains(#"id="meal-total-dinner">195 kcal"#) && page.contains(#"id="meal-total-lunch">210 kcal"#))
            #expect(page.contains(#"id="meal-total-breakfast">0 kcal"#))
            #expect(page.contains("150 g · P 4") && page.contains("2 × 1 medium · by hand"), "the day shows the amounts")
            #expect(page.contains(#"<option value="lunch" selected>"#), "new food goes to the meal it is time for")
            #expect(
                try await browser.get(client, "/food?date=\(today)&meal=breakfast").text.contains(
                    #"<option value="breakfast" selected>"#), "a meal's Add chooses it")

            // The edit page shows the numbers for one serving and the amount; a new amount rescales.
            let bananaID = try #require(Pages.itemID(in: page, named: "Banana"))
            let edit = try await browser.get(client, "/food/items/\(bananaID)").text
            #expect(edit.contains(#"name="calories" value="105""#) && edit.contains(#"name="amount" value="2""#))
            let saved = try await browser.post(
                client, "/food/items/\(bananaID)",
                form: [
                    "name": "Banana", "calories": "105", "servingSize": "1", "servingUnit": "medium", "amount": "3",
                    "mealOfDay": "snacks",
                ])
            #expect(saved.status == .found)
            let after = try await browser.get(client, "/food?date=\(today)").text
            #expect(after.contains(#"id="meal-total-snacks">315 kcal"#) && after.contains(#"id="meal-total-lunch">0 kcal"#))
        }
    }

    @Test(arguments: Engine.available)
    func badAmountsAndMealsAreRefusedInWordsAndWriteNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Pages.signedUp(client, "ada@example.com")
            let today = Pages.today(server).description
            for (amount, meal, message) in [
                ("0", "lunch", "The amount must be a number of servings more than 0, such as 2 or 0.5."),
                ("lots", "lunch", "The amount must be a number, such as 250 or 12.5."),
                ("20000", "lunch", "The amount must be between 0.01 and 10,000 servings."),
                ("1", "brunch", "Choose breakfast, lunch, dinner or snacks."),
            ] {
                let refused = try await browser.post(
                    client, "/food/items",
                    form: ["date": today, "name": "Tea", "calories": "2", "amount": amount, "mealOfDay": meal])
                #expect(refused.status == .unprocessableContent)
                #expect(refused.text.contains(message), "\(amount) \(meal)")
            }
            #expect(Pages.live(try await Pages.pulled(client, device), NutritionEntities.item).isEmpty)
        }
    }

    @Test(arguments: Engine.available)
    func yesterdaysBreakfastOrAWholeDayIsCopied(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Pages.signedUp(client, "ada@example.com")
            let today = Pages.today(server)
            let yesterday = today.adding(days: -1)
            for (name, calories, meal) in [("Oats", "150", "breakfast"), ("Pasta", "600", "dinner")] {
                _ = try await browser.post(
                    client, "/food/items",
                    form: ["date": yesterday.description, "name": name, "calories": calories, "mealOfDay": meal])
            }
            let page = try await browser.get(client, "/food").text
            #expect(page.contains("Copy yesterday&#39;s breakfast") || page.contains("Copy yesterday's breakfast"))
            #expect(!page.contains(#"id="copy-lunch""#), "a meal yesterday did not have is not offered")

            let copied = try await browser.post(
                client, "/food/copy",
                form: ["date": today.description, "from": yesterday.description, "meal": "breakfast"])
            #expect(copied.status == .found)
            #expect(try await browser.get(client, try #require(copied.headers[.location])).text.contains("Copied 1 food from"))
            let day = try await browser.post(
                client, "/food/copy", form: ["date": today.description, "from": yesterday.description])
            #expect(try await browser.get(client, try #require(day.headers[.location])).text.contains("Copied 2 foods from"))
            let shown = try await browser.get(client, "/food").text
            #expect(shown.contains(#"id="meal-total-breakfast">300 kcal"#) && shown.contains(#"id="meal-total-dinner">600 kcal"#))

            let nothing = try await browser.post(
                client, "/food/copy",
                form: ["date": today.description, "from": yesterday.description, "meal": "lunch"])
            #expect(nothing.status == .unprocessableContent && nothing.text.contains("there is nothing to copy"))
            let future = try await browser.post(
                client, "/food/copy", form: ["date": today.adding(days: 1).description, "from": yesterday.description])
            #expect(future.status == .unprocessableContent)
            #expect(Pages.live(try await Pages.pulled(client, device), NutritionEntities.item).count == 5)
        }
    }

    @Test(arguments: Engine.available)
    func recentFoodsAndFavouritesAreOneTapAway(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Pages.signedUp(client, "ada@example.com")
            let today = Pages.today(server).description
            _ = try await browser.post(
                client, "/food/items",
                form: [
                    "date": today, "name": "Yogurt", "calories": "60", "servingSize": "100", "servingUnit": "g",
                    "amount": "200",
                ])
            let page = try await browser.get(client, "/food").text
            #expect(page.contains(#"id="recent-list""#) && page.contains("200 g · 120 kcal"), "recent, with the amount")
            #expect(page.contains(#"aria-label="Make Yogurt a favourite""#))

            let starred = try await browser.post(
                client, "/food/favorites",
                form: [
                    "date": today, "name": "Yogurt", "calories": "60", "servingSize": "100", "servingUnit": "g",
                    "amount": "200",
                ])
            #expect(starred.status == .found)
            let withFavourite = try await browser.get(client, try #require(starred.headers[.location])).text
            #expect(withFavourite.contains("Yogurt is a favourite"))
            #expect(withFavourite.contains(#"aria-label="Remove Yogurt from favourites""#))
            let favorite = try #require(
                Pages.live(try await Pages.pulled(client, device), NutritionEntities.favorite).first)
            #expect(favorite.fields["servings"] == .double(2) && favorite.fields["calories"] == .double(120))

            // Logging the favourite again is the ordinary add form with its fields.
            server.clock.advance(by: 60)
            _ = try await browser.post(
                client, "/food/items",
                form: [
                    "date": today, "name": "Yogurt", "calories": "60", "servingSize": "100", "servingUnit": "g",
                    "amount": "200",
                ])
            #expect(try await browser.get(client, "/food").text.contains(#"<strong id="total-calories">240</strong>"#))

            let removed = try await browser.post(
                client, "/food/favorites/\(favorite.id.lowercased)/delete", form: ["date": today])
            #expect(removed.status == .ok && removed.text.contains("Yogurt is no longer a favourite."))
            #expect(Pages.live(try await Pages.pulled(client, device), NutritionEntities.favorite).isEmpty)

            var (other, _) = try await Pages.signedUp(client, "eve@example.com")
            #expect(
                try await other.post(client, "/food/favorites/\(favorite.id.lowercased)/delete", form: [:]).status
                    == .notFound)
        }
    }

    @Test(arguments: Engine.available)
    func aCustomMealIsEditedWithAmountsAndLoggedToAMeal(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Pages.signedUp(client, "ada@example.com")
            let today = Pages.today(server).description
            _ = try await browser.post(
                client, "/food/meals",
                form: [
                    "date": today, "name": "Breakfast", "ingredients.0.name": "Egg", "ingredients.0.calories": "78",
                    "ingredients.0.servingSize": "1", "ingredients.0.servingUnit": "egg", "ingredients.0.amount": "2",
                ])
            let meal = try #require(Pages.live(try await Pages.pulled(client, device), NutritionEntities.meal).first)
            let editPage = try await browser.get(client, "/food/meals/\(meal.id.lowercased)?date=\(today)")
            #expect(editPage.status == .ok && editPage.text.contains("Edit Breakfast"))
            #expect(editPage.text.contains(#"name="ingredients.0.amount" value="2""#))
            #expect(editPage.text.contains(#"action="/food/meals/\#(meal.id.lowercased)""#), "the form saves this meal")
            #expect(editPage.text.contains(#"<h1 id="meal-heading">Edit Breakfast</h1>"#))
            #expect(editPage.text.contains(#"name="ingredients.0.calories" value="78""#), "per serving")

            let edited = try await browser.post(
                client, "/food/meals/\(meal.id.lowercased)",
                form: [
                    "date": today, "name": "Big breakfast", "ingredients.0.name": "Egg",
                    "ingredients.0.calories": "78", "ingredients.0.servingSize": "1",
                    "ingredients.0.servingUnit": "egg", "ingredients.0.amount": "3",
                    "ingredients.1.name": "Juice", "ingredients.1.calories": "110",
                ])
            #expect(edited.status == .found)
            let refused = try await browser.post(
                client, "/food/meals/\(meal.id.lowercased)",
                form: ["date": today, "name": "Big breakfast", "ingredients.0.name": "Egg", "ingredients.0.calories": "-1"])
            #expect(refused.status == .unprocessableContent && refused.text.contains("Ingredient 1: Calories must be between 0 and 50,000."))

            let logged = try await browser.post(
                client, "/food/meals/\(meal.id.lowercased)/log", form: ["date": today, "mealOfDay": "breakfast"])
            let shown = try await browser.get(client, try #require(logged.headers[.location])).text
            #expect(shown.contains("Added Big breakfast to breakfast: 344 kcal."))
            #expect(shown.contains(#"id="meal-total-breakfast">344 kcal"#))
            let changes = try await Pages.pulled(client, device)
            #expect(Pages.live(changes, NutritionEntities.ingredient).count == 2)
            #expect(Pages.live(changes, NutritionEntities.item).allSatisfy { $0.fields["mealOfDay"] == .string("breakfast") })

            var (other, _) = try await Pages.signedUp(client, "eve@example.com")
            #expect(try await other.get(client, "/food/meals/\(meal.id.lowercased)").status == .notFound)
            #expect(
                try await other.post(
                    client, "/food/meals/\(meal.id.lowercased)",
                    form: ["name": "Mine", "ingredients.0.name": "Tea", "ingredients.0.calories": "2"]
                ).status == .notFound)
        }
    }
}
