import Foundation
import KithCore
import Testing

@Suite("Nutrition book")
struct NutritionBookTests {
    static let scope = "user:anonymous"

    static func record(_ entity: EntityDeclaration, id: UUID = UUID(), _ fields: [String: JSONTree]) -> SyncRecord {
        var record = SyncRecord(entity: entity.name, id: id, scope: scope)
        record.fields = fields
        return record
    }

    @Test func aDayAddsUpItsItemsAgainstTheGoalOfThatDay() throws {
        let date = try #require(LocalDate("2026-11-24"))
        let dayID = NutritionFields.dayID(scope: Self.scope, date: date)
        let at = Date(timeIntervalSince1970: 1_795_521_600)
        let records = [
            Self.record(NutritionEntities.day, id: dayID, NutritionFields.day(date, goal: 1800)),
            Self.record(
                NutritionEntities.item,
                NutritionFields.item(
                    day: dayID, food: Food(name: "Toast", calories: 300, protein: 10), source: .manual,
                    loggedAt: at.addingTimeInterval(60))),
            Self.record(
                NutritionEntities.item,
                NutritionFields.item(day: dayID, food: Food(name: "Coffee", calories: 5), source: .search, loggedAt: at)
            ),
            Self.record(
                NutritionEntities.goal, id: NutritionFields.goalID(scope: Self.scope),
                NutritionFields.goal(2200, timeZone: nil)),
        ]
        let book = NutritionBook(records: records)
        let day = book.day(date)
        #expect(day.items.map(\.food.name) == ["Coffee", "Toast"], "in the order they were logged")
        #expect(day.totalCalories == 305 && day.totalProtein == 10)
        #expect(day.goal == 1800, "the goal that applied that day, not today's 2200")
        #expect(day.remaining == 1495)
        let empty = book.day(date.adding(days: -1))
        #expect(empty.items.isEmpty && empty.goal == 2200, "a day with nothing logged compares to the current goal")
        // What is left is counted from the whole calories shown, so the two numbers add up to the goal.
        let fractions = DaySummary(
            date: date,
            items: try [
                #require(
                    FoodItem(
                        id: UUID(),
                        fields: NutritionFields.item(
                            day: dayID, food: Food(name: "Soup", calories: 968.4), source: .manual, loggedAt: at)))
            ],
            goal: 2000)
        #expect(fractions.totalCalories.rounded() + (fractions.remaining ?? 0) == 2000)
        let history = book.history(days: 3, today: date)
        #expect(history.map(\.date.description) == ["2026-11-22", "2026-11-23", "2026-11-24"])
        #expect(history.map(\.calories) == [0, 0, 305])
    }

    @Test func theDayJSONHasTheShapeTheCommandLinePromises() throws {
        let date = try #require(LocalDate("2026-11-24"))
        let summary = DaySummary(date: date, items: [], goal: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(summary), as: UTF8.self)
        #expect(text.contains(#""date":"2026-11-24""#))
        #expect(text.contains(#""goal":null"#), "no goal is written as null")
        #expect(text.contains(#""items":[]"#) && text.contains(#""totalCalories":0"#))
    }

    @Test func movingDataIntoAnAccountDerivesItsIdsAnewAndFollowsReferences() throws {
        let date = try #require(LocalDate("2026-11-24"))
        let oldDay = NutritionFields.dayID(scope: "user:anonymous", date: date)
        let day = Self.record(NutritionEntities.day, id: oldDay, NutritionFields.day(date, goal: nil))
        let item = Self.record(
            NutritionEntities.item,
            NutritionFields.item(
                day: oldDay, food: Food(name: "Pear", calories: 100), source: .manual, loggedAt: Date()))
        let meal = Self.record(NutritionEntities.meal, NutritionFields.meal(name: "Lunch", createdAt: Date()))
        let account = "user:0b6f0a9e-1111-4000-8000-000000000002"
        let moved = EntityCatalog.kith.moving([day, item, meal], to: account)
        let newDay = NutritionFields.dayID(scope: account, date: date)
        #expect(moved[0].id == newDay && moved[0].scope == account)
        #expect(moved[1].id == item.id, "an item keeps its random id")
        #expect(moved[1].fields["logId"] == .string(newDay.lowercased), "and points at the day's new id")
        #expect(moved[2].id == meal.id)
    }
}
