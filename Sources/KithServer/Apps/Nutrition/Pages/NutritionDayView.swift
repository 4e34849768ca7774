import Foundation
import KithCore

/// What the /food page shows, as Mustache values: one day's items and totals against the goal, the
/// way to the days around it (inside the retention window), the last 30 days, the custom meals.
struct NutritionDayView {
    let book: NutritionBook
    let date: LocalDate
    let today: LocalDate
    let window: ClosedRange<LocalDate>
    /// The reader's time zone, named as the browser named it.
    let zoneName: String

    static let historyDays = 30

    var values: [String: Any] {
        let summary = book.day(date)
        let history = book.history(days: Self.historyDays, today: today)
        var values: [String: Any] = [
            "date": [
                "iso": date.description, "text": NutritionFormat.long(date), "isToday": date == today,
                "shortText": NutritionFormat.medium(date),
            ],
            "today": today.description,
            "minDate": window.lowerBound.description,
            "maxDate": window.upperBound.description,
            "zone": zoneName,
            "summary": Self.summary(summary),
            "items": summary.items.map(Self.row),
            "hasItems": !summary.items.isEmpty,
            "chartSVG": NutritionChartSVG.render(history, today: today),
            "chartText": NutritionChartSVG.description(history),
            "chartRows": history.reversed().map { Self.chartRow($0, logged: book.days[$0.date] != nil) },
            "meals": book.meals.map(Self.meal),
            "hasMeals": !book.meals.isEmpty,
            "goalValue": book.goal.map { String($0.dailyCalories) } ?? "",
            "hasGoal": book.goal != nil,
        ]
        let previous = date.adding(days: -1)
        if window.contains(previous) { values["previousDate"] = previous.description }
        let next = date.adding(days: 1)
        if window.contains(next) { values["nextDate"] = next.description }
        if !window.contains(date) {
            values["outsideWindow"] =
                date > today
                ? "This day has not begun yet: food is logged on the day it is eaten."
                : "Logs are kept for \(window.upperBound.dayNumber - window.lowerBound.dayNumber) days: this day can't be written any more."
        }
        return values
    }

    static func summary(_ day: DaySummary) -> [String: Any] {
        var summary: [String: Any] = [
            "total": NutritionFormat.kcal(day.totalCalories),
            "protein": NutritionFormat.grams(day.totalProtein), "carbs": NutritionFormat.grams(day.totalCarbs),
            "fat": NutritionFormat.grams(day.totalFat),
        ]
        if let goal = day.goal, let remaining = day.remaining, let progress = day.progress {
            let over = remaining < 0
            summary["goal"] = [
                "calories": NutritionFormat.kcal(Double(goal)),
                "percent": Int((progress * 100).rounded()),
                "isOver": over,
                "remainingText": over
                    ? "\(NutritionFormat.kcal(-remaining)) kcal over" : "\(NutritionFormat.kcal(remaining)) kcal left",
                // The bar's fill, 0-100 (an SVG attribute: the page's CSP allows no inline styles).
                "fill": NutritionChartSVG.number(min(max(progress, 0), 1) * 100),
            ]
        }
        return summary
    }

    static func row(_ item: FoodItem) -> [String: Any] {
        let food = item.food
        let source = sourceLabels[item.source] ?? item.source.rawValue
        // The serving and the macros that are known, then where it came from: "250 g · P 10 g · C 54 g · by hand".
        let macros = [("P", food.protein), ("C", food.carbs), ("F", food.fat)].compactMap { letter, grams in
            grams.map { "\(letter) \(NutritionFormat.grams($0))" }
        }
        let details = ([food.serving].compactMap { $0 } + macros + [source]).joined(separator: " · ")
        return [
            "id": item.id.lowercased, "name": food.name, "calories": NutritionFormat.kcal(food.calories),
            "details": details, "source": item.source.rawValue, "sourceLabel": source,
        ]
    }

    static let sourceLabels: [FoodSource: String] = [.manual: "by hand", .search: "from search", .meal: "from a meal"]

    /// A row of the chart's table; a day with nothing logged has no calories to compare.
    static func chartRow(_ day: DayTotal, logged: Bool) -> [String: Any] {
        var row: [String: Any] = [
            "date": day.date.description, "dateText": NutritionFormat.medium(day.date),
            "calories": logged ? NutritionFormat.kcal(day.calories) : "–",
        ]
        if let goal = day.goal {
            row["goal"] = NutritionFormat.kcal(Double(goal))
        }
        if let goal = day.goal, logged {
            let difference = day.calories - Double(goal)
            row["difference"] = difference > 0 ? "\(NutritionFormat.kcal(difference)) over" : "\(NutritionFormat.kcal(-difference)) left"
            row["isOver"] = difference > 0
        }
        return row
    }

    static func meal(_ meal: CustomMeal) -> [String: Any] {
        [
            "id": meal.id.lowercased, "name": meal.name, "calories": NutritionFormat.kcal(meal.calories),
            "ingredients": meal.ingredients.map(\.name).joined(separator: ", "),
            "count": meal.ingredients.count == 1 ? "1 ingredient" : "\(meal.ingredients.count) ingredients",
        ]
    }

    /// A food's values for the form that edits it.
    static func form(_ food: Food) -> [String: String] {
        [
            "name": food.name, "calories": Food.format(food.calories), "protein": NutritionFormat.field(food.protein),
            "carbs": NutritionFormat.field(food.carbs), "fat": NutritionFormat.field(food.fat),
            "servingSize": NutritionFormat.field(food.servingSize), "servingUnit": food.servingUnit ?? "",
        ]
    }
}
