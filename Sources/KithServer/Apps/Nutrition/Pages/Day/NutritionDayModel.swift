import Foundation
import KithCore

/// The /food page (food.mustache): one day's meals with their items and totals against the goal,
/// the way to the days around it (inside the retention window), recent and favourite foods, the
/// last 30 days, the custom meals; after a refused form, what it had typed and why.
struct NutritionDayModel: NutritionPageModel {
    static let template = "food"
    static let historyDays = 30

    let date: Day
    /// Today and the retention window's first and last days, `yyyy-MM-dd`.
    let today: String
    let minDate: String
    let maxDate: String
    /// The reader's time zone, named as the browser named it.
    let zone: String
    let previousDate: String?
    let nextDate: String?
    /// Why the day can't be written (not begun yet, or past the window).
    let outsideWindow: String?
    let summary: DayTotals
    /// Nothing logged at all: the day says so once, not each empty meal (a meal's own `hasItems`
    /// would hide a day-level one of that name inside the sections).
    let dayIsEmpty: Bool
    /// Breakfast, lunch, dinner and snacks, each with its items and total.
    let sections: [MealSectionRow]
    /// The meal the add forms add to (the one it is time for, unless the address chose), as choices.
    private(set) var target: MealOfDay
    private(set) var mealChoices: [MealChoice]
    /// What "Copy a whole day" offers first (the day before), when this day can be written.
    let copyDayFrom: String?
    let recentFoods: [QuickFood]
    let favorites: [QuickFood]
    let chartSVG: String
    let chartText: String
    let chartRows: [ChartRow]
    let meals: [MealRow]
    let hasMeals: Bool
    /// The goal's kcal in its field ("" without one).
    let goalValue: String
    let hasGoal: Bool
    let limits = FoodFieldLimits.item
    let goalLimits = GoalLimits.declared
    var notice: String?
    /// The address the page stands for when a form's answer showed it (app.js puts it in the
    /// address bar).
    var canonicalPath: String?
    /// The add-food form: as typed after a refusal (which opens it, `openAdd`), else empty.
    var form = FoodForm()
    var errors: FoodErrors?
    var openAdd = false
    var itemError: String?
    var mealError: String?
    /// Why a copy or a favourite was refused.
    var shortcutError: String?
    var goalForm: GoalForm?
    var goalErrors: GoalErrors?
    var goalError: String?

    init(
        book: NutritionBook, date: LocalDate, today: LocalDate, window: ClosedRange<LocalDate>, zoneName: String,
        target: MealOfDay
    ) {
        let day = book.day(date)
        let history = book.history(days: Self.historyDays, today: today)
        self.date = Day(date, today: today)
        self.today = today.description
        minDate = window.lowerBound.description
        maxDate = window.upperBound.description
        zone = zoneName
        let previous = date.adding(days: -1)
        previousDate = window.contains(previous) ? previous.description : nil
        let next = date.adding(days: 1)
        nextDate = window.contains(next) ? next.description : nil
        outsideWindow =
            window.contains(date)
            ? nil
            : date > today
                ? "This day has not begun yet: food is logged on the day it is eaten."
                : "Logs are kept for \(window.upperBound.dayNumber - window.lowerBound.dayNumber) days: this day can't be written any more."
        summary = DayTotals(day)
        dayIsEmpty = day.items.isEmpty
        let before = book.day(previous)
        let canWrite = window.contains(date)
        sections = MealOfDay.allCases.map { meal in
            MealSectionRow(
                meal, items: day.items(in: meal), date: date, today: today,
                copyFrom: canWrite && !before.items(in: meal).isEmpty ? previous : nil)
        }
        copyDayFrom = canWrite ? previous.description : nil
        self.target = target
        mealChoices = MealChoice.all(choosing: target)
        recentFoods = book.recentFoods().map { QuickFood($0, favorite: book.favorite(matching: $0)) }
        favorites = book.favorites.map { QuickFood($0.food, favorite: $0) }
        chartSVG = NutritionChartSVG.render(history, today: today)
        chartText = NutritionChartSVG.description(history)
        chartRows = history.reversed().map { ChartRow($0, logged: book.days[$0.date] != nil) }
        meals = book.meals.map(MealRow.init)
        hasMeals = !book.meals.isEmpty
        goalValue = book.goal.map { String($0.dailyCalories) } ?? ""
        hasGoal = book.goal != nil
    }

    /// Makes `meal` what the add forms add to.
    mutating func choose(_ meal: MealOfDay) {
        target = meal
        mealChoices = MealChoice.all(choosing: meal)
    }

    struct Day {
        let iso: String
        let text: String
        let shortText: String
        let isToday: Bool

        init(_ date: LocalDate, today: LocalDate) {
            iso = date.description
            text = NutritionFormat.long(date)
            shortText = NutritionFormat.medium(date)
            isToday = date == today
        }
    }

    struct GoalForm {
        let dailyCalories: String
    }

    struct GoalErrors: FieldErrors {
        var dailyCalories: String?

        static var fields: [String: WritableKeyPath<Self, String?>] { [NutritionFields.dailyCalories: \.dailyCalories] }
    }

    /// The goal's field's bounds, and the same in words for its label.
    struct GoalLimits {
        let min: String
        let max: String
        let text: String

        /// The range `NutritionEntities.goal` declares for `dailyCalories`.
        static let declared = GoalLimits(NutritionEntities.goalRange)

        init(_ range: ClosedRange<Int64>) {
            let bounds = InputBounds(range)
            min = bounds.min
            max = bounds.max
            text =
                "\(NutritionFormat.kcal(Double(range.lowerBound))) to \(NutritionFormat.kcal(Double(range.upperBound)))"
        }
    }
}
