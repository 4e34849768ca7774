import Foundation
import KithCore
import KithTestSupport
import Testing

/// `kith food …`: the calorie log before an account exists, then moved into one and seen from
/// another device (seed 002 req. 3, 6, 9).
@Suite("kith food: text and JSON")
struct FoodCommandTests {
    static var today: String { LocalDate(Date(), in: TimeZone(identifier: "UTC")!).description }
    static var yesterday: String { LocalDate(Date(), in: TimeZone(identifier: "UTC")!).adding(days: -1).description }

    @Test("log, goal, meals, history and delete before sign-up, then the data moves into the account")
    func offlineThenMovedIn() async throws {
        try await TestServer.run { server in
            try await withHome { home in
                var phone = Device("phone", home: home, server: nil)
                phone.environment["TZ"] = "UTC"
                let banana = try await phone.object([
                    "food", "log", "Banana", "--calories", "105", "--protein", "1.3", "--carbs", "27", "--fat", "0.4",
                    "--serving", "1 medium",
                ])
                #expect(banana["name"] as? String == "Banana" && banana["servingUnit"] as? String == "medium")
                #expect(banana["source"] as? String == "manual")
                let bananaID = try #require(banana["id"] as? String)
                #expect(await phone.kith(["food", "goal", "set", "2000"]).stdout == "Daily goal: 2000 kcal.\n")
                let meal = await phone.kith([
                    "food", "meals", "add", "Breakfast", "--ingredient", "Oats=150,5,27,3", "--ingredient", "Milk=60",
                ])
                #expect(meal.stdout.hasPrefix("Created ") && meal.stdout.contains("Breakfast: 210 kcal"), "\(meal)")
                let logged = await phone.kith(["food", "meals", "log", "breakfast"])
                #expect(logged.stdout.hasPrefix("Added Breakfast to "), "\(logged)")

                let day = try await phone.object(["food", "day"])
                #expect(day["date"] as? String == Self.today)
                #expect(day["totalCalories"] as? Double == 315 && day["goal"] as? Int == 2000, "\(day)")
                let items = try #require(day["items"] as? [[String: Any]])
                #expect(items.map { $0["name"] as? String } == ["Banana", "Oats", "Milk"])
                #expect(
                    Set(items[0].keys).isSuperset(of: [
                        "id", "name", "calories", "protein", "carbs", "fat", "source", "loggedAt",
                    ]))
                let text = await phone.kith(["food", "day"])
                #expect(text.stdout.hasPrefix("\(Self.today): 315 kcal of 2000 kcal, 1685 kcal left\n"), "\(text)")
                let chart = await phone.kith(["food", "history", "--days", "3"])
                #expect(
                    chart.stdout.split(separator: "\n").count == 3 && chart.stdout.contains("315 / 2000"), "\(chart)")

                let search = try await phone.object(["food", "search", "banana", "--limit", "3"])
                #expect(search["source"] as? String == "builtin", "signed out: this device's own list")
                let foods = try #require(search["foods"] as? [[String: Any]])
                #expect(foods.count <= 3 && (foods.first?["name"] as? String)?.hasPrefix("Banana") == true, "\(foods)")
                let fromSearch = try await phone.object([
                    "food", "search", "banana", "--log", "1", "--date", Self.yesterday,
                ])
                #expect(fromSearch["source"] as? String == "search")
                let noSuch = await phone.kith(["food", "search", "banana", "--limit", "2", "--log", "9"])
                #expect(noSuch.stderr.contains("there is no number 9"), "\(noSuch)")

                // An item is edited in place: what is given changes, the rest (and its day) stays.
                let edited = try await phone.object([
                    "food", "edit", String(bananaID.prefix(8)), "--calories", "120", "--clear", "fat", "--name",
                    "Big banana",
                ])
                #expect(edited["name"] as? String == "Big banana" && edited["calories"] as? Double == 120)
                #expect(
                    (edited["fat"] as? Double) == nil && edited["protein"] as? Double == 1.3
                        && edited["servingUnit"] as? String == "medium")
                let editedDay = try await phone.object(["food", "day"])
                #expect(editedDay["totalCalories"] as? Double == 330, "\(editedDay)")
                let nothing = await phone.kith(["food", "edit", String(bananaID.prefix(8))])
                #expect(nothing.exitCode != 0 && nothing.stderr.contains("Say what to change"), "\(nothing)")
                let badEdit = await phone.kith(["food", "edit", String(bananaID.prefix(8)), "--calories", "60000"])
                #expect(
                    badEdit.exitCode == 1 && badEdit.stderr == "error: Calories must be between 0 and 50,000.\n",
                    "\(badEdit)")
                let tomorrow = LocalDate(Date(), in: TimeZone(identifier: "UTC")!).adding(days: 1)
                let future = await phone.kith([
                    "food", "log", "Later", "--calories", "5", "--date", tomorrow.description,
                ])
                #expect(future.exitCode == 1 && future.stderr.contains("is in the future"), "\(future)")

                let tooMuch = await phone.kith(["food", "log", "Feast", "--calories", "60000"])
                #expect(
                    tooMuch.exitCode == 1 && tooMuch.stderr == "error: Calories must be between 0 and 50,000.\n",
                    "\(tooMuch)")
                let old = await phone.kith(["food", "log", "Old", "--calories", "5", "--date", "2020-01-01"])
                #expect(old.stderr.contains("more than 90 days ago"), "\(old)")
                let noGoal = await phone.kith(["food", "goal", "set", "100"])
                #expect(
                    noGoal.exitCode == 1
                        && noGoal.stderr == "error: The daily goal must be between 500 and 50,000 calories.\n",
                    "\(noGoal)")

                // Sign up: the log moves into the account and is uploaded.
                phone.server = server.url
                let email = try await phone.signUp()
                let laptop = Device("laptop", home: home, server: server.url)
                let login = await laptop.kith(
                    ["account", "login", email, "--password-stdin"], input: "a good password\n")
                #expect(login.exitCode == 0, "\(login)")
                var laptopTZ = laptop
                laptopTZ.environment["TZ"] = "UTC"
                let seen = try await laptopTZ.object(["food", "day"])
                #expect((seen["items"] as? [[String: Any]])?.count == 3 && seen["goal"] as? Int == 2000, "\(seen)")
                #expect(try await laptopTZ.array(["food", "meals"]).map { $0["name"] as? String } == ["Breakfast"])

                let deleted = await laptopTZ.kith(["food", "delete", String(bananaID.prefix(8))])
                #expect(deleted.stdout == "Deleted Big banana.\n", "\(deleted)")
                let after = try await phone.object(["food", "day"])
                #expect((after["items"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Oats", "Milk"])
                #expect(await phone.kith(["sync", "log"]).stdout == "No conflicts and no refused changes.\n")
            }
        }
    }

    @Test("amounts, meals of the day, copying, recent foods, favourites and editing a meal")
    func everydayCommands() async throws {
        try await withHome { home in
            var phone = Device("phone", home: home, server: nil)
            phone.environment["TZ"] = "UTC"
            let rice = await phone.kith([
                "food", "log", "Rice", "--calories", "130", "--serving", "100 g", "--amount", "150", "--meal", "dinner",
                "--date", Self.yesterday,
            ])
            #expect(rice.stdout.hasPrefix("Added Rice to dinner.\n") && rice.stdout.contains("Rice (150 g) 195 kcal"), "\(rice)")
            let eggs = try await phone.object([
                "food", "log", "Egg", "--calories", "78", "--serving", "1 egg", "--amount", "2", "--meal", "breakfast",
                "--date", Self.yesterday,
            ])
            #expect(eggs["calories"] as? Double == 156 && eggs["servings"] as? Double == 2)
            #expect(eggs["amount"] as? String == "2 × 1 egg" && eggs["mealOfDay"] as? String == "breakfast")
            let badAmount = await phone.kith(["food", "log", "Tea", "--calories", "2", "--amount", "0"])
            #expect(badAmount.exitCode != 0 && badAmount.stderr.contains("--amount takes how much you ate"), "\(badAmount)")

            let copied = await phone.kith(["food", "copy", "yesterday", "--meal", "breakfast"])
            #expect(copied.stdout.hasPrefix("Copied \(Self.yesterday)'s breakfast to \(Self.today): 1 food, 156 kcal."), "\(copied)")
            let day = await phone.kith(["food", "day"])
            #expect(day.stdout.contains("  Breakfast: 156 kcal\n") && !day.stdout.contains("Dinner"), "\(day)")
            let whole = try await phone.array(["food", "copy", Self.yesterday])
            #expect(whole.count == 2)
            let sections = try #require(try await phone.object(["food", "day"])["meals"] as? [[String: Any]])
            #expect(sections.map { $0["meal"] as? String } == ["breakfast", "dinner"])
            #expect(sections.map { $0["totalCalories"] as? Double } == [312, 195])

            let recent = await phone.kith(["food", "recent"])
            #expect(
                recent.stdout.split(separator: "\n").count == 2 && recent.stdout.contains("Egg (2 × 1 egg) 156 kcal")
                    && recent.stdout.contains("Rice (150 g) 195 kcal"), "each food once, with its amount: \(recent)")
            let again = try await phone.object(["food", "recent", "--log", "1", "--meal", "snacks"])
            #expect(again["mealOfDay"] as? String == "snacks" && [156, 195].contains(again["calories"] as? Double))

            let itemID = try #require(eggs["id"] as? String)
            let favourite = await phone.kith(["food", "favorites", "add", String(itemID.prefix(8))])
            #expect(favourite.stdout == "Egg is a favourite.\n", "\(favourite)")
            #expect(await phone.kith(["food", "favorites"]).stdout == "1. Egg (2 × 1 egg) 156 kcal\n")
            let fromFavourite = try await phone.object(["food", "favorites", "log", "1", "--meal", "lunch"])
            #expect(fromFavourite["calories"] as? Double == 156 && fromFavourite["mealOfDay"] as? String == "lunch")
            #expect(await phone.kith(["food", "favorites", "log", "2"]).stderr.contains("there is no number 2"))
            #expect(await phone.kith(["food", "favorites", "remove", "1"]).stdout == "Egg is no longer a favourite.\n")

            _ = await phone.kith(["food", "meals", "add", "Breakfast", "--ingredient", "Oats=150"])
            let edited = await phone.kith([
                "food", "meals", "edit", "breakfast", "--name", "Big breakfast", "--ingredient", "2 x Egg=78,6,0.6,5",
                "--ingredient", "Juice=110",
            ])
            #expect(edited.stdout.contains("Big breakfast: 266 kcal") && edited.stdout.contains("Egg (2 servings) 156 kcal"), "\(edited)")
            let logged = await phone.kith(["food", "meals", "log", "big breakfast", "--in", "breakfast"])
            #expect(logged.stdout.hasPrefix("Added Big breakfast to breakfast:\n"), "\(logged)")
        }
    }
}