import Foundation
import KithCore

extension NutritionDayModel {
    /// The day's totals, and how they compare with the goal when there is one.
    struct DayTotals {
        let total: String
        let protein: String
        let carbs: String
        let fat: String
        let goal: GoalProgress?

        init(_ day: DaySummary) {
            total = NutritionFormat.kcal(day.totalCalories)
            protein = NutritionFormat.grams(day.totalProtein)
            carbs = NutritionFormat.grams(day.totalCarbs)
            fat = NutritionFormat.grams(day.totalFat)
            if let goal = day.goal, let remaining = day.remaining, let progress = day.progress {
                self.goal = GoalProgress(goal: goal, remaining: remaining, progress: progress)
            } else {
                goal = nil
            }
        }
    }

    struct GoalProgress {
        let calories: String
        let percent: Int
        let isOver: Bool
        let remainingText: String
        /// The bar's fill, 0-100 (an SVG attribute: the page's CSP allows no inline styles).
        let fill: String

        init(goal: Int64, remaining: Double, progress: Double) {
            calories = NutritionFormat.kcal(Double(goal))
            percent = Int((progress * 100).rounded())
            isOver = remaining < 0
            remainingText =
                isOver
                ? "\(NutritionFormat.kcal(-remaining)) kcal over" : "\(NutritionFormat.kcal(remaining)) kcal left"
            fill = NutritionChartSVG.number(min(max(progress, 0), 1) * 100)
        }
    }

    /// A row of the chart's table; a day with nothing logged has no calories to compare.
    struct ChartRow {
        let date: String
        let dateText: String
        let calories: String
        let goal: String?
        let difference: String?
        let isOver: Bool

        init(_ day: DayTotal, logged: Bool) {
            date = day.date.description
            dateText = NutritionFormat.medium(day.date)
            calories = logged ? NutritionFormat.kcal(day.calories) : "–"
            goal = day.goal.map { NutritionFormat.kcal(Double($0)) }
            let difference = day.goal.flatMap { logged ? day.calories - Double($0) : nil }
            self.difference = difference.map {
                $0 > 0 ? "\(NutritionFormat.kcal($0)) over" : "\(NutritionFormat.kcal(-$0)) left"
            }
            isOver = (difference ?? 0) > 0
        }
    }

    struct MealRow {
        let id: String
        let name: String
        let calories: String
        let ingredients: String
        /// "1 ingredient", "3 ingredients".
        let count: String

        init(_ meal: CustomMeal) {
            id = meal.id.lowercased
            name = meal.name
            calories = NutritionFormat.kcal(meal.calories)
            ingredients = meal.ingredients.map(\.name).joined(separator: ", ")
            count = meal.ingredients.count == 1 ? "1 ingredient" : "\(meal.ingredients.count) ingredients"
        }
    }
}
