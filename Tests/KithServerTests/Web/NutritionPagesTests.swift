import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// The Food web pages (/food) as one more device of the signed-in user: what they write goes
/// through `SyncWriter` and `NutritionRules` like a push and reaches the user's devices; what
/// devices push shows on the pages; a refusal says which field and why and writes nothing.
@Suite("Nutrition web pages")
struct NutritionPagesTests {
    typealias Browser = WebSessionTests.Browser

    /// A browser signed up as `email`, and the same account as a device (its session).
    static func signedUp(_ client: any TestClientProtocol, _ email: String) async throws -> (
        Browser, AuthSessionResponse
    ) {
        var browser = Browser()
        _ = try await browser.get(client, "/signup")
        let signedUp = try await browser.post(client, "/signup", form: ["email": email, "password": "correct horse"])
        #expect(signedUp.status == .found)
        let device = try await client.logIn(email, "correct horse").decode(AuthSessionResponse.self)
        return (browser, device)
    }

    /// The account's nutrition records as a device pulls them (deleted ones too).
    static func pulled(_ client: any TestClientProtocol, _ device: AuthSessionResponse) async throws -> [ChangeDTO] {
        try await OutreachPagesTests.pulled(client, token: device.accessToken).filter {
            $0.entity.hasPrefix("nutrition.")
        }
    }

    static func live(_ changes: [ChangeDTO], _ entity: EntityDeclaration) -> [ChangeDTO] {
        changes.filter { $0.entity == entity.name && !$0.deleted }
    }

    static func today(_ server: TestServer) -> LocalDate { LocalDate(server.clock.now, in: .gmt) }

    static func scope(_ device: AuthSessionResponse) -> String { "user:" + device.user.id.uuidString.lowercased() }

    static func itemID(in html: String, named name: String) -> String? {
        guard let nameRange = html.range(of: ">\(name)</span>") else { return nil }
        let before = html[..<nameRange.lowerBound]
        guard let row = before.range(of: #"id="item-"#, options: .backwards) else { return nil }
        return String(before[row.upperBound...].prefix(36))
    }

    @Test(arguments: Engine.available)
    func foodLoggedByHandIsEditedDeletedAndSyncedToDevices(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server)
            let empty = try await browser.get(client, "/food")
            #expect(empty.status == .ok)
            #expect(empty.text.contains("Nothing logged on this day yet."))
            #expect(empty.text.contains(#"id="nav-food" href="/food""#), "the navigation links to /food")

            let added = try await browser.post(
                client, "/food/items",
                form: [
                    "date": today.description, "source": "manual", "name": " Apple ", "calories": "95",
                    "protein": "0.5",
                    "carbs": "25", "fat": "", "servingSize": "1", "servingUnit": "medium",
                ])
            #expect(added.status == .found)
            let addedAt = try #require(added.headers[.location])
            #expect(addedAt.hasPrefix("/food?date=\(today)&added="))
            #expect(try await browser.get(client, addedAt).text.contains("Added Apple to lunch."), "it says what it did, and where (11:06 UTC: lunch)")

            let changes = try await Self.pulled(client, device)
            let day = try #require(Self.live(changes, NutritionEntities.day).first)
            #expect(day.id == NutritionFields.dayID(scope: Self.scope(device), date: today), "the day's id is derived")
            #expect(day.fields["date"] == .string(today.description))
            let item = try #require(Self.live(changes, NutritionEntities.item).first)
            #expect(item.fields["name"] == .string("Apple"), "trimmed, as on devices")
            #expect(item.fields["logId"] == .string(day.id.lowercased))
            #expect(item.fields["source"] == .string("manual"))
            #expect(item.fields["fat"] == .null)
            #expect(item.fields["loggedAt"] == .string(WireCoding.formatTimestamp(server.clock.now)))

            let page = try await browser.get(client, "/food?date=\(today)")
            #expect(page.text.contains(#"<span class="food-name">Apple</span>"#))
            #expect(page.text.contains("1 medium · P 0.5 g · C 25 g · by hand"), "unknown numbers are left out")
            #expect(page.text.contains(#"<strong id="total-calories">95</strong>"#))
            #expect(Self.itemID(in: page.text, named: "Apple") == item.id.lowercased)

            // Edit: the page, then the form.
            let editPage = try await browser.get(client, "/food/items/\(item.id.lowercased)")
            #expect(editPage.status == .ok)
            #expect(editPage.text.contains(#"value="95""#))
            let edited = try await browser.post(
                client, "/food/items/\(item.id.lowercased)",
                form: ["name": "Green apple", "calories": "80", "servingSize": "1", "servingUnit": "small"])
            #expect(edited.status == .found)
            #expect(edited.headers[.location] == "/food?date=\(today)&saved=\(item.id.lowercased)")
            let afterEdit = try #require(try await Self.pulled(client, device).first { $0.id == item.id })
            #expect(
                afterEdit.fields["name"] == .string("Green apple") && afterEdit.fields["calories"]?.doubleValue == 80)
            #expect(afterEdit.fields["protein"] == .null, "a number left empty is cleared")
            #expect(afterEdit.fields["source"] == .string("manual"), "the source stays")

            // A device's change shows on the page.
            server.clock.advance(by: 1)
            var phone = SyncAPITests.device(device, node: "phone", server: server)
            let pushed = phone.mutation(
                UUID(), .upsert,
                NutritionFields.item(
                    day: day.id, food: Food(name: "Tea <b>", calories: 2), source: .manual, loggedAt: server.clock.now),
                entity: NutritionEntities.item.name)
            #expect(try await SyncAPITests.push(client, phone, [pushed]).results.map(\.status) == [.applied])
            let withTea = try await browser.get(client, "/food?date=\(today)")
            #expect(withTea.text.contains("Tea &lt;b&gt;"), "names are escaped")
            #expect(withTea.text.contains(#"<strong id="total-calories">82</strong>"#))

            // Delete asks first.
            let confirm = try await browser.get(client, "/food/items/\(item.id.lowercased)/delete")
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains("Delete Green apple?"))
            let deleted = try await browser.post(client, "/food/items/\(item.id.lowercased)/delete", form: [:])
            #expect(deleted.status == .ok && deleted.text.contains("Deleted Green apple."))
            let gone = try #require(try await Self.pulled(client, device).first { $0.id == item.id })
            #expect(gone.deleted)
            let after = try await browser.get(client, "/food?date=\(today)")
            #expect(!after.text.contains("Green apple"))
            #expect(after.text.contains(#"<strong id="total-calories">2</strong>"#))
        }
    }

    /// Two tabs open on one food: each save writes only the fields its person changed, and where
    /// both changed one field the later wins and the day page says what it replaced.
    @Test(arguments: Engine.available)
    func twoTabsEditingOneFoodKeepBothChangesOrSayWhatWasReplaced(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server).description
            _ = try await browser.post(
                client, "/food/items", form: ["date": today, "name": "Porridge", "calories": "300", "protein": "10"])
            let item = try #require(Self.live(try await Self.pulled(client, device), NutritionEntities.item).first)
            let address = "/food/items/\(item.id.lowercased)"
            let page = try await browser.get(client, address)
            #expect(page.text.contains(#"name="seen.calories" value="300""#), "the form says what it showed")
            let shown = [
                "seen.name": "Porridge", "seen.calories": "300", "seen.protein": "10", "seen.carbs": "", "seen.fat": "",
                "seen.servingSize": "", "seen.servingUnit": "",
            ]
            let form = shown.reduce(into: [String: String]()) { $0[String($1.key.dropFirst(5))] = $1.value }

            // Tab 1 changes the calories; tab 2, opened before, changes only the name.
            var tab1 = form.merging(shown) { $1 }
            tab1["calories"] = "350"
            tab1["_key"] = "tab-1"
            #expect(try await browser.post(client, address, form: tab1).status == .found)
            var tab2 = form.merging(shown) { $1 }
            tab2["name"] = "Oat porridge"
            tab2["_key"] = "tab-2"
            let second = try await browser.post(client, address, form: tab2)
            #expect(second.headers[.location] == "/food?date=\(today)&saved=\(item.id.lowercased)")
            var stored = try #require(try await Self.pulled(client, device).first { $0.id == item.id })
            #expect(stored.fields["name"] == .string("Oat porridge"))
            #expect(stored.fields["calories"]?.doubleValue == 350, "tab 2 did not undo tab 1's calories")
            #expect(try await browser.get(client, second.headers[.location] ?? "").text.contains("Saved Oat porridge."))

            // Both change the calories: the later wins, and the page says what it replaced.
            var tab3 = form.merging(shown) { $1 }
            tab3["name"] = "Oat porridge"
            tab3["calories"] = "320"
            tab3["_key"] = "tab-3"
            let third = try await browser.post(client, address, form: tab3)
            #expect(third.headers[.location] == "/food?date=\(today)&saved=\(item.id.lowercased)&replaced=calories")
            stored = try #require(try await Self.pulled(client, device).first { $0.id == item.id })
            #expect(stored.fields["calories"]?.doubleValue == 320)
            let notice = try await browser.get(client, third.headers[.location] ?? "")
            #expect(notice.text.contains("Your calories replaced a change made elsewhere after you opened the page."))
        }
    }

    /// Every Food form carries the browser's write key: sent again (a double click, a retry), it
    /// changes nothing the second time and goes where the first went.
    @Test(arguments: Engine.available)
    func foodFormsSentTwiceWithTheirKeyChangeOnce(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server).description
            _ = try await browser.post(client, "/food/items", form: ["date": today, "name": "Tea", "calories": "2"])
            let tea = try #require(Self.live(try await Self.pulled(client, device), NutritionEntities.item).first)
            let address = "/food/items/\(tea.id.lowercased)/delete"
            let deleted = try await browser.post(client, address, form: ["_key": "delete-tea"])
            #expect(deleted.status == .ok && deleted.text.contains("Deleted Tea."))
            #expect(deleted.text.contains(#"data-canonical-path="/food?date=\#(today)""#))
            let again = try await browser.post(client, address, form: ["_key": "delete-tea"])
            #expect(again.status == .ok && again.text.contains("Deleted Tea."), "answered as the first")
            let unkeyed = try await browser.post(client, address, form: [:])
            #expect(unkeyed.status == .notFound, "without its key the same form finds nothing left to delete")

            let goal = ["date": today, "dailyCalories": "2000", "_key": "goal-2000"]
            #expect(try await browser.post(client, "/food/goal", form: goal).status == .found)
            let versions = { (changes: [ChangeDTO]) in Self.live(changes, NutritionEntities.goal).map(\.seq) }
            let before = versions(try await Self.pulled(client, device))
            #expect(try await browser.post(client, "/food/goal", form: goal).status == .found)
            #expect(versions(try await Self.pulled(client, device)) == before, "the second send wrote nothing")
            let reused = try await browser.post(
                client, "/food/goal", form: ["date": today, "dailyCalories": "1500", "_key": "goal-2000"])
            #expect(reused.status == .unprocessableContent, "one key names one change")
        }
    }

    @Test(arguments: Engine.available)
    func refusalsSayWhichFieldAndWhyAndWriteNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server).description
            let tooMuch = try await browser.post(
                client, "/food/items", form: ["date": today, "source": "manual", "name": "Feast", "calories": "60000"])
            #expect(tooMuch.status == .unprocessableContent)
            #expect(
                tooMuch.text.contains(
                    #"<p id="food-calories-error" class="field-error">Calories must be between 0 and 50,000.</p>"#))
            #expect(tooMuch.text.contains(#"value="60000""#), "what was typed is kept")
            #expect(tooMuch.text.contains(#"value="Feast""#))

            let refusals: [([String: String], String)] = [
                (["name": "Feast", "calories": "lots"], "Calories must be a number, such as 250 or 12.5."),
                (["name": "Feast", "calories": "nan"], "Calories must be a number, such as 250 or 12.5."),
                (["name": "Feast", "calories": "0x10"], "Calories must be a number, such as 250 or 12.5."),
                (["name": "Feast", "calories": "100", "fat": "1e3"], "Fat must be a number, such as 250 or 12.5."),
                (["name": "   ", "calories": "100"], "Enter the food&#39;s name."),
                (["name": "Feast", "calories": "100", "protein": "10001"], "Protein must be between 0 and 10,000 g."),
                (["name": "Feast", "calories": "100", "source": "meal"], "source must be manual or search."),
                (["name": "Feast", "calories": "100", "date": "yesterday"], "date must be a day such as 2026-11-24."),
                (
                    ["name": "Feast", "calories": "100", "date": Self.today(server).adding(days: -120).description],
                    "more than 90 days ago"
                ),
            ]
            for (fields, message) in refusals {
                var form = ["date": today, "source": "manual"]
                form.merge(fields) { _, given in given }
                let refused = try await browser.post(client, "/food/items", form: form)
                #expect(refused.status == .unprocessableContent, "\(fields)")
                #expect(refused.text.contains(message), "\(fields): \(message)")
            }

            let forged = try await browser.post(
                client, "/food/items", form: ["date": today, "name": "Feast", "calories": "100"], csrf: false)
            #expect(forged.status == .forbidden)
            let wrongToken = try await browser.post(
                client, "/food/items",
                form: ["date": today, "name": "Feast", "calories": "100", "_csrf": "not-the-token"],
                csrf: false)
            #expect(wrongToken.status == .forbidden)
            #expect(
                try await browser.post(client, "/food/goal", form: ["dailyCalories": "2000"], csrf: false).status
                    == .forbidden)

            let lowGoal = try await browser.post(client, "/food/goal", form: ["date": today, "dailyCalories": "100"])
            #expect(lowGoal.status == .unprocessableContent)
            #expect(
                lowGoal.text.contains(
                    #"<p id="goal-calories-error" class="field-error">The daily goal must be between 500 and 50,000 calories.</p>"#
                ))
            let badZone = try await browser.post(
                client, "/food/goal", form: ["date": today, "dailyCalories": "2000", "timeZone": "Mars/Olympus"])
            #expect(badZone.status == .unprocessableContent)
            #expect(badZone.text.contains("timeZone must be an IANA time zone"))

            let badMeal = try await browser.post(
                client, "/food/meals",
                form: [
                    "name": "Breakfast", "ingredients.0.name": "Toast", "ingredients.0.calories": "80",
                    "ingredients.1.name": "Butter", "ingredients.1.calories": "60000",
                ])
            #expect(badMeal.status == .unprocessableContent)
            #expect(badMeal.text.contains("Ingredient 2: Calories must be between 0 and 50,000."))
            #expect(badMeal.text.contains(#"value="Toast""#), "the rows typed are kept")
            let noIngredients = try await browser.post(client, "/food/meals", form: ["name": "Nothing"])
            #expect(noIngredients.status == .unprocessableContent)
            #expect(noIngredients.text.contains("Add at least one ingredient"))
            let noName = try await browser.post(
                client, "/food/meals",
                form: ["name": " ", "ingredients.0.name": "Toast", "ingredients.0.calories": "80"])
            #expect(noName.status == .unprocessableContent)
            #expect(noName.text.contains(#"id="meal-name-error""#))

            #expect(try await Self.pulled(client, device).isEmpty, "no refused form wrote anything")
            let page = try await browser.get(client, "/food?date=\(today)")
            #expect(page.text.contains("Nothing logged on this day yet."))
        }
    }

    @Test(arguments: Engine.available)
    func theGoalShowsProgressRemainingAndOverAndCanBeClearedAndSetAgain(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server).description
            let set = try await browser.post(
                client, "/food/goal", form: ["date": today, "dailyCalories": "2000", "timeZone": "Europe/Paris"])
            #expect(set.status == .found)
            let goal = try #require(Self.live(try await Self.pulled(client, device), NutritionEntities.goal).first)
            #expect(goal.id == NutritionFields.goalID(scope: Self.scope(device)))
            #expect(goal.fields["dailyCalories"] == .int(2000) && goal.fields["timeZone"] == .string("Europe/Paris"))

            _ = try await browser.post(
                client, "/food/items", form: ["date": today, "name": "Lunch", "calories": "1500"])
            let under = try await browser.get(client, "/food?date=\(today)")
            #expect(under.text.contains(#"<span id="remaining">500 kcal left</span>"#))
            #expect(under.text.contains(#"class="goal-bar-fill" x="0" y="0" width="75""#))
            let day = try #require(Self.live(try await Self.pulled(client, device), NutritionEntities.day).first)
            #expect(day.fields["goal"] == .int(2000), "a new day takes the goal of the time")

            _ = try await browser.post(
                client, "/food/items", form: ["date": today, "name": "Cake", "calories": "750.5"])
            let over = try await browser.get(client, "/food?date=\(today)")
            #expect(over.text.contains(#"<span id="remaining">251 kcal over</span>"#))
            #expect(over.text.contains("goal-progress is-over"))
            #expect(over.text.contains(#"width="100""#))

            let cleared = try await browser.post(client, "/food/goal/clear", form: ["date": today])
            #expect(cleared.status == .found)
            let none = try await browser.get(client, "/food?date=\(today)")
            #expect(none.text.contains("No daily goal set."))
            let afterClear = try await Self.pulled(client, device)
            #expect(Self.live(afterClear, NutritionEntities.goal).first?.fields["dailyCalories"] == .null)
            #expect(
                Self.live(afterClear, NutritionEntities.day).first?.fields["goal"] == .null, "today has no goal either")

            let again = try await browser.post(client, "/food/goal", form: ["date": today, "dailyCalories": "1800"])
            #expect(again.status == .found, "a cleared goal can be set again")
            let reset = try await browser.get(client, "/food?date=\(today)")
            #expect(reset.text.contains(#"<span id="goal-calories">1,800</span>"#))
            let stored = try #require(Self.live(try await Self.pulled(client, device), NutritionEntities.goal).first)
            #expect(stored.fields["timeZone"] == .string("Europe/Paris"), "a form without a zone keeps the stored one")
        }
    }

    @Test(arguments: Engine.available)
    func customMealsAreCreatedLoggedAndDeleted(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, device) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server)
            #expect(try await browser.get(client, "/food/meals/new?date=\(today)").status == .ok)
            let created = try await browser.post(
                client, "/food/meals",
                form: [
                    "date": today.description, "name": "Breakfast", "ingredients.0.name": "Oatmeal",
                    "ingredients.0.calories": "150", "ingredients.0.servingSize": "40",
                    "ingredients.0.servingUnit": "g",
                    "ingredients.2.name": "Milk", "ingredients.2.calories": "120", "ingredients.2.protein": "8",
                ])
            #expect(created.status == .found)
            #expect(created.headers[.location] == "/food?date=\(today)#meals")
            let page = try await browser.get(client, "/food?date=\(today)")
            #expect(page.text.contains(#"<span class="food-name meal-name">Breakfast</span>"#))
            #expect(page.text.contains("2 ingredients: Oatmeal, Milk"))
            #expect(page.text.contains("270 kcal"))

            let changes = try await Self.pulled(client, device)
            let meal = try #require(Self.live(changes, NutritionEntities.meal).first)
            let ingredients = Self.live(changes, NutritionEntities.ingredient)
            #expect(ingredients.count == 2)
            #expect(Set(ingredients.map { $0.fields["position"] }) == [.int(0), .int(1)], "blank rows are left out")

            server.clock.advance(by: 60)
            let logged = try await browser.post(
                client, "/food/meals/\(meal.id.lowercased)/log", form: ["date": today.description])
            #expect(logged.status == .found)
            let shown = try await browser.get(client, try #require(logged.headers[.location]))
            #expect(shown.text.contains("Added Breakfast to lunch: 270 kcal."))
            #expect(shown.text.contains(#"<strong id="total-calories">270</strong>"#))
            let afterLog = try await Self.pulled(client, device)
            let items = Self.live(afterLog, NutritionEntities.item)
            #expect(items.count == 2 && items.allSatisfy { $0.fields["source"] == .string("meal") })
            #expect(Set(items.compactMap { $0.fields["name"]?.stringValue }) == ["Oatmeal", "Milk"])
            let used = try #require(afterLog.first { $0.id == meal.id })
            #expect(used.fields["lastUsedAt"] == .string(WireCoding.formatTimestamp(server.clock.now)))

            let confirm = try await browser.get(client, "/food/meals/\(meal.id.lowercased)/delete?date=\(today)")
            #expect(confirm.text.contains("Delete the meal Breakfast?"))
            let deleted = try await browser.post(client, "/food/meals/\(meal.id.lowercased)/delete", form: [:])
            #expect(deleted.status == .found)
            let afterDelete = try await Self.pulled(client, device)
            #expect(Self.live(afterDelete, NutritionEntities.meal).isEmpty)
            #expect(Self.live(afterDelete, NutritionEntities.ingredient).isEmpty, "its ingredients go with it")
            #expect(Self.live(afterDelete, NutritionEntities.item).count == 2, "what was logged from it stays")
            #expect(try await browser.get(client, "/food").text.contains("No meals yet."))
        }
    }

    @Test(arguments: Engine.available)
    func daysAroundTodayTheChartAndItsTable(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (browser, _) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server)
            _ = try await browser.post(client, "/food/goal", form: ["dailyCalories": "2000"])
            for (back, calories) in [(0, "1200"), (1, "2600"), (29, "1800"), (30, "900")] {
                let date = today.adding(days: -back).description
                let logged = try await browser.post(
                    client, "/food/items", form: ["date": date, "name": "Meal", "calories": calories])
                #expect(logged.status == .found, "\(date)")
            }
            let page = try await browser.get(client, "/food")
            #expect(page.text.contains(#"data-date="\#(today)""#), "without a date: today (UTC without a zone)")
            #expect(page.text.contains(#"<svg class="chart" id="history-chart""#))
            #expect(page.text.contains(#"<title id="chart-title">"#) && page.text.contains(#"<desc id="chart-desc">"#))
            #expect(page.text.components(separatedBy: #"<rect class="chart-bar"#).count - 1 == 30, "one bar a day")
            #expect(page.text.contains(#"class="chart-bar is-over""#), "the day over the goal stands out")
            #expect(page.text.contains("3 of 30 days logged"), "the 31st day back is not in the chart")
            #expect(page.text.contains("1 day over the goal"))
            #expect(
                page.text.contains(#"<a href="/food?date=\#(today.adding(days: -1))">"#), "the table links each day")
            #expect(page.text.contains("600 over"))
            #expect(!page.text.contains(#"id="next-day""#), "no day after today")

            let yesterday = try await browser.get(client, "/food?date=\(today.adding(days: -1))")
            #expect(yesterday.text.contains(#"id="next-day" href="/food?date=\#(today)""#))
            #expect(yesterday.text.contains(#"<strong id="total-calories">2,600</strong>"#))
            let oldest = try await browser.get(client, "/food?date=\(today.adding(days: -90))")
            #expect(!oldest.text.contains(#"id="previous-day""#), "the window ends at the retention limit")
            let outside = try await browser.get(client, "/food?date=\(today.adding(days: -91))")
            #expect(outside.text.contains(#"id="outside-window""#))
            #expect(try await browser.get(client, "/food?date=nonsense").text.contains(#"data-date="\#(today)""#))

            // The browser's zone (food.js's cookie) decides what today is.
            browser.cookies[WebTime.zoneCookie] = "Pacific%2FKiritimati"
            let kiritimati = try await browser.get(client, "/food")
            let thereToday = LocalDate(server.clock.now, in: try #require(TimeZone(identifier: "Pacific/Kiritimati")))
            #expect(kiritimati.text.contains(#"data-today="\#(thereToday)""#))
            #expect(kiritimati.text.contains(#"data-zone="Pacific/Kiritimati""#))
        }
    }

    @Test(arguments: Engine.available)
    func anotherUsersFoodAndMealsAreNotFound(engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            var (ada, adaDevice) = try await Self.signedUp(client, "ada@example.com")
            let today = Self.today(server).description
            _ = try await ada.post(client, "/food/items", form: ["date": today, "name": "Apple", "calories": "95"])
            _ = try await ada.post(
                client, "/food/meals",
                form: ["name": "Lunch", "ingredients.0.name": "Soup", "ingredients.0.calories": "200"])
            let before = try await Self.pulled(client, adaDevice)
            let item = try #require(Self.live(before, NutritionEntities.item).first).id.lowercased
            let meal = try #require(Self.live(before, NutritionEntities.meal).first).id.lowercased

            var (bob, _) = try await Self.signedUp(client, "bob@example.com")
            let posts: [(String, [String: String])] = [
                ("/food/items/\(item)", ["name": "Mine", "calories": "1"]),
                ("/food/items/\(item)/delete", [:]),
                ("/food/meals/\(meal)/log", ["date": today]),
                ("/food/meals/\(meal)/delete", [:]),
                ("/food/items/not-an-id", ["name": "Mine", "calories": "1"]),
            ]
            for (path, form) in posts {
                #expect(try await bob.post(client, path, form: form).status == .notFound, "\(path)")
            }
            for path in ["/food/items/\(item)", "/food/items/\(item)/delete", "/food/meals/\(meal)/delete"] {
                #expect(try await bob.get(client, path).status == .notFound, "\(path)")
            }
            #expect(!(try await bob.get(client, "/food?date=\(today)").text.contains("Apple")))
            #expect(try await Self.pulled(client, adaDevice) == before, "nothing of Ada's changed")

            var stranger = Browser()
            let signedOut = try await stranger.get(client, "/food")
            #expect(signedOut.status == .found && signedOut.headers[.location] == "/signin?next=%2Ffood")
        }
    }

    @Test(arguments: Engine.available)
    func thePagesOwnChangesNudgeTheLiveSocket(engine: Engine) async throws {
        try await TestServer.withLiveServer(engine) { server, port, client in
            var (browser, _) = try await Self.signedUp(client, "ada@example.com")
            let cookie = try #require(browser.cookieHeader[.cookie])
            let page = try await RawWebSocket.open(
                port: port, headers: [("Cookie", cookie), ("Origin", "http://127.0.0.1:\(port)")])
            #expect(LiveMessage(text: try #require(try await page.nextFrame()).text) == .ready)
            let logged = try await browser.post(
                client, "/food/items",
                form: ["date": Self.today(server).description, "name": "Apple", "calories": "95"])
            #expect(logged.status == .found)
            let nudge = LiveMessage(text: try #require(try await page.nextFrame()).text)
            #expect(nudge?.type == .changed)
        }
    }
}
