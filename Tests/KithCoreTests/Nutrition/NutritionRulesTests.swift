import Foundation
import KithCore
import Testing

/// The rules both the server and devices run (docs/nutrition.md "Rules").
@Suite("Nutrition rules")
struct NutritionRulesTests {
    static let scope = "user:6f1c2d1e-0000-4000-8000-000000000001"
    /// 2026-11-24T12:00:00Z
    static let now = Date(timeIntervalSince1970: 1_795_521_600)
    static let server = RuleContext(now: now)
    static let paris = RuleContext(now: now, timeZone: TimeZone(identifier: "Europe/Paris")!)
    static let rules = NutritionRules.all()

    static func problem(_ mutation: Mutation, current: SyncRecord? = nil, records: [SyncRecord] = [], _ context: RuleContext = server)
        -> APIErrorDetail?
    {
        let related = Dictionary(grouping: records, by: \.entity)
        return rules.filter { $0.entity == mutation.entity }
            .lazy.compactMap { $0.problem(with: mutation, current: current, records: related, context: context) }.first
    }

    static func mutation(_ entity: EntityDeclaration, id: UUID, _ fields: [String: JSONTree] = [:], op: Mutation.Operation = .upsert)
        -> Mutation
    {
        Mutation(mutationId: UUID(), entity: entity.name, id: id, scope: scope, op: op, fields: fields, hlc: HLC(wallMillis: 1, counter: 0, node: "a"))
    }

    static func day(_ text: String) -> (UUID, SyncRecord) {
        let date = LocalDate(text)!
        let id = NutritionFields.dayID(scope: scope, date: date)
        var record = SyncRecord(entity: NutritionEntities.day.name, id: id, scope: scope)
        record.fields = NutritionFields.day(date, goal: nil)
        return (id, record)
    }

    @Test func aDaysIdIsDerivedFromTheAccountAndTheDate() {
        let date = LocalDate("2026-11-24")!
        let id = NutritionFields.dayID(scope: Self.scope, date: date)
        #expect(id == NutritionFields.dayID(scope: Self.scope, date: date), "every device derives the same id")
        #expect(id != NutritionFields.dayID(scope: "user:someone-else", date: date))
        #expect(Self.problem(Self.mutation(NutritionEntities.day, id: id, NutritionFields.day(date, goal: nil))) == nil)
        let random = Self.problem(Self.mutation(NutritionEntities.day, id: UUID(), NutritionFields.day(date, goal: nil)))
        #expect(random?.code == "day_id", "a random id (the original app's bug) is refused")
    }

    @Test func aDayIsWrittenOnlyInsideTheRetentionWindow() {
        // 90 days before 2026-11-24 is 2026-08-26: that day is kept, the one before is not.
        let (keptID, _) = Self.day("2026-08-26")
        let kept = Self.mutation(NutritionEntities.day, id: keptID, NutritionFields.day(LocalDate("2026-08-26")!, goal: nil))
        #expect(Self.problem(kept, Self.paris) == nil)
        let (oldID, _) = Self.day("2026-08-25")
        let old = Self.mutation(NutritionEntities.day, id: oldID, NutritionFields.day(LocalDate("2026-08-25")!, goal: nil))
        let refused = Self.problem(old, Self.paris)
        #expect(refused?.code == "outside_retention")
        #expect(refused?.message == "2026-08-25 is more than 90 days ago; logs older than that are deleted, so it can't be written.")
    }

    @Test func theServerAllowsEveryTimeZoneWhereTheDeviceUsesItsOwn() {
        // At noon UTC every zone is on the 24th or the 25th: the 25th of August is expired everywhere.
        let (id, _) = Self.day("2026-08-25")
        let mutation = Self.mutation(NutritionEntities.day, id: id, NutritionFields.day(LocalDate("2026-08-25")!, goal: nil))
        #expect(Self.problem(mutation, Self.server)?.code == "outside_retention")
        // At 2026-11-24T06:00Z it is still the 23rd at UTC-12: the 25th of August is inside there,
        // so the server accepts it, while a device in Paris (already the 24th) refuses it.
        let early = Date(timeIntervalSince1970: 1_795_500_000)
        let earlyServer = RuleContext(now: early)
        let (borderID, _) = Self.day("2026-08-25")
        let border = Self.mutation(NutritionEntities.day, id: borderID, NutritionFields.day(LocalDate("2026-08-25")!, goal: nil))
        #expect(Self.problem(border, earlyServer) == nil)
        #expect(Self.problem(border, RuleContext(now: early, timeZone: TimeZone(identifier: "Europe/Paris")!))?.code == "outside_retention")
    }

    @Test func aDayInTheFutureIsRefusedWhereverItWouldBeToday() {
        func problem(_ text: String, _ context: RuleContext) -> APIErrorDetail? {
            let (id, _) = Self.day(text)
            return Self.problem(Self.mutation(NutritionEntities.day, id: id, NutritionFields.day(LocalDate(text)!, goal: nil)), context)
        }
        // Far ahead it would never be purged, and no one ate there yet.
        #expect(problem("9999-12-31", Self.server)?.field == "date")
        #expect(problem("2026-11-26", Self.server)?.message == "2026-11-26 is in the future; log a day once it has begun.")
        // At noon UTC on the 24th it is already the 25th at UTC+14: the server takes the 25th, a
        // device in Paris does not.
        #expect(problem("2026-11-25", Self.server) == nil)
        #expect(problem("2026-11-25", Self.paris)?.field == "date")
        #expect(problem("2026-11-24", Self.paris) == nil)
    }

    @Test func aMealHoldsAtMostThirtyIngredientsWhoeverWritesThem() {
        var meal = SyncRecord(entity: NutritionEntities.meal.name, id: UUID(), scope: Self.scope)
        meal.fields = ["name": .string("Feast"), "createdAt": .string("2026-11-24T12:00:00.000Z")]
        let held = (0..<30).map { position in
            var ingredient = SyncRecord(entity: NutritionEntities.ingredient.name, id: UUID(), scope: Self.scope)
            ingredient.fields = NutritionFields.ingredient(meal: meal.id, food: Food(name: "Pea", calories: 1), position: position)
            return ingredient
        }
        let another = NutritionFields.ingredient(meal: meal.id, food: Food(name: "Pea", calories: 1), position: 30)
        let newOne = Self.mutation(NutritionEntities.ingredient, id: UUID(), another)
        #expect(Self.problem(newOne, records: [meal] + held.dropLast()) == nil, "the 30th is fine")
        let refused = Self.problem(newOne, records: [meal] + held)
        #expect(refused?.field == "ingredients" && refused?.message == "A meal has at most 30 ingredients.")
        // An ingredient already in the meal is still edited.
        #expect(Self.problem(Self.mutation(NutritionEntities.ingredient, id: held[0].id, held[0].fields), current: held[0], records: [meal] + held) == nil)
        // Another meal's ingredients don't count.
        var other = meal
        other.id = UUID()
        #expect(Self.problem(Self.mutation(NutritionEntities.ingredient, id: UUID(), NutritionFields.ingredient(meal: other.id, food: Food(name: "Pea", calories: 1), position: 0)), records: [meal, other] + held) == nil)
    }

    @Test func daysAreDeletedOnlyOnceTheyLeftTheWindow() {
        let (recentID, recent) = Self.day("2026-11-20")
        let kept = Self.problem(Self.mutation(NutritionEntities.day, id: recentID, op: .delete), current: recent)
        #expect(kept?.code == "day_kept", "deleting a recent day would block that date forever")
        let (oldID, old) = Self.day("2026-08-01")
        #expect(Self.problem(Self.mutation(NutritionEntities.day, id: oldID, op: .delete), current: old) == nil)
    }

    @Test func anItemNeedsItsDayAndStaysInIt() {
        let (dayID, day) = Self.day("2026-11-24")
        let fields = NutritionFields.item(
            day: dayID, food: Food(name: "Apple", calories: 95), source: .manual, loggedAt: Self.now)
        let itemID = UUID()
        #expect(Self.problem(Self.mutation(NutritionEntities.item, id: itemID, fields), records: [day]) == nil)
        let orphan = Self.problem(Self.mutation(NutritionEntities.item, id: itemID, fields))
        #expect(orphan?.code == "not_found" && orphan?.field == "logId")
        var current = SyncRecord(entity: NutritionEntities.item.name, id: itemID, scope: Self.scope)
        current.fields = fields
        let (otherID, other) = Self.day("2026-11-23")
        let moved = Self.problem(
            Self.mutation(NutritionEntities.item, id: itemID, ["logId": .string(otherID.lowercased)]), current: current,
            records: [day, other])
        #expect(moved?.field == "logId")
    }

    @Test func deletingADayTakesItsItemsAndAMealItsIngredients() {
        let (dayID, _) = Self.day("2026-08-01")
        var item = SyncRecord(entity: NutritionEntities.item.name, id: UUID(), scope: Self.scope)
        item.fields = NutritionFields.item(day: dayID, food: Food(name: "Tea", calories: 2), source: .manual, loggedAt: Self.now)
        var otherItem = item
        otherItem.id = UUID()
        otherItem.fields["logId"] = .string(UUID().uuidString.lowercased())
        let dayRule = Self.rules.first { $0.entity == NutritionEntities.day.name }!
        let gone = dayRule.cascade(
            of: Self.mutation(NutritionEntities.day, id: dayID, op: .delete), records: [NutritionEntities.item.name: [item, otherItem]])
        #expect(gone.map(\.id) == [item.id])

        let mealID = UUID()
        var ingredient = SyncRecord(entity: NutritionEntities.ingredient.name, id: UUID(), scope: Self.scope)
        ingredient.fields = NutritionFields.ingredient(meal: mealID, food: Food(name: "Rice", calories: 200), position: 0)
        let mealRule = Self.rules.first { $0.entity == NutritionEntities.meal.name }!
        #expect(
            mealRule.cascade(
                of: Self.mutation(NutritionEntities.meal, id: mealID, op: .delete),
                records: [NutritionEntities.ingredient.name: [ingredient]]
            ).map(\.id) == [ingredient.id])
        let orphan = Self.problem(Self.mutation(NutritionEntities.ingredient, id: UUID(), ingredient.fields))
        #expect(orphan?.code == "not_found" && orphan?.field == "mealId")
    }

    @Test func theGoalIsOnePerAccountWithARealTimeZone() {
        let id = NutritionFields.goalID(scope: Self.scope)
        #expect(Self.problem(Self.mutation(NutritionEntities.goal, id: id, ["dailyCalories": .int(2000)])) == nil)
        #expect(Self.problem(Self.mutation(NutritionEntities.goal, id: UUID(), ["dailyCalories": .int(2000)]))?.code == "goal_id")
        let zone = Self.problem(Self.mutation(NutritionEntities.goal, id: id, ["timeZone": .string("Mars/Olympus")]))
        #expect(zone?.field == "timeZone")
    }

    @Test func limitsSayWhichFieldAndWhy() {
        let declaration = NutritionEntities.item
        func first(_ food: Food) -> APIErrorDetail? { NutritionFields.problems(with: food).first }
        #expect(first(Food(name: "Apple", calories: 95, protein: 0.5, carbs: 25, fat: 0.3)) == nil)
        #expect(first(Food(name: "Feast", calories: 50_001))?.message == "Calories must be between 0 and 50,000.")
        #expect(first(Food(name: "Protein", calories: 10, protein: 10_001))?.field == "protein")
        #expect(first(Food(name: "Negative", calories: -1))?.field == "calories")
        #expect(first(Food(name: "  ", calories: 1))?.field == "name")
        #expect(declaration.problems(in: ["source": .string("magic")], isCreation: false).first?.message
            == "source must be one of search, manual, meal.")
        #expect(NutritionEntities.goal.problems(in: ["dailyCalories": .int(499)], isCreation: false).first?.field == "dailyCalories")
        #expect(NutritionEntities.day.problems(in: ["date": .string("2026-02-30")], isCreation: false).first?.message
            == "date must be a date (yyyy-MM-dd).")
    }
}
