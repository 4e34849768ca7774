import Foundation
import Hummingbird
import KithCore

/// What the day page says after a form sent the person back to it: what it is about by id
/// (`?saved=ID&replaced=calories`, `?loggedMeal=ID`), so an address can't put text of its own on
/// the page (decision 9); the names come from the person's own data.
enum NutritionNotice: Equatable {
    case added(UUID)
    /// A custom meal logged, in the meal of the day it went to.
    case loggedMeal(UUID, MealOfDay)
    /// Foods copied from a day (only its `meal` when given).
    case copied(count: Int, from: LocalDate, meal: MealOfDay?)
    case favorite(UUID)
    /// An item saved; the fields the save replaced after someone else had changed them.
    case saved(UUID, replaced: [String])

    /// The notice a day address carries, if any.
    init?(_ query: QueryParameters) {
        if let item = query.get("added").flatMap(UUID.init(text:)) {
            self = .added(item)
        } else if let meal = query.get("loggedMeal").flatMap(UUID.init(text:)) {
            self = .loggedMeal(meal, query.get("to").flatMap(MealOfDay.init(rawValue:)) ?? .snacks)
        } else if let count = query.get("copied").flatMap(Int.init), count > 0,
            let from = query.get("from").flatMap(LocalDate.init)
        {
            self = .copied(count: count, from: from, meal: query.get("fromMeal").flatMap(MealOfDay.init(rawValue:)))
        } else if let favorite = query.get("favorite").flatMap(UUID.init(text:)) {
            self = .favorite(favorite)
        } else if let item = query.get("saved").flatMap(UUID.init(text:)) {
            let replaced = (query.get("replaced") ?? "").split(separator: ",").map(String.init)
            self = .saved(item, replaced: replaced.filter { Self.fieldNames[$0] != nil })
        } else {
            return nil
        }
    }

    /// The day page of `date` with this notice.
    func address(on date: LocalDate) -> String {
        switch self {
        case .added(let item): return "/food?date=\(date)&added=\(item.lowercased)"
        case .loggedMeal(let meal, let part):
            return "/food?date=\(date)&loggedMeal=\(meal.lowercased)&to=\(part.rawValue)"
        case .copied(let count, let from, let meal):
            return "/food?date=\(date)&copied=\(count)&from=\(from)" + (meal.map { "&fromMeal=\($0.rawValue)" } ?? "")
        case .favorite(let id): return "/food?date=\(date)&favorite=\(id.lowercased)#quick"
        case .saved(let item, let replaced):
            let fields = replaced.isEmpty ? "" : "&replaced=" + replaced.sorted().joined(separator: ",")
            return "/food?date=\(date)&saved=\(item.lowercased)" + fields
        }
    }

    /// A food's fields, as a notice names them.
    static let fieldNames = [
        NutritionFields.name: NutritionFields.name, NutritionFields.calories: NutritionFields.calories,
        NutritionFields.protein: NutritionFields.protein, NutritionFields.carbs: NutritionFields.carbs,
        NutritionFields.fat: NutritionFields.fat,
        NutritionFields.servingSize: "serving size", NutritionFields.servingUnit: "serving unit",
    ]

    /// The sentence, or nil when what it is about is not (or no longer) in the book.
    func text(in book: NutritionBook) -> String? {
        switch self {
        case .added(let id):
            return book.items.values.lazy.flatMap({ $0 }).first(where: { $0.id == id }).map {
                "Added \($0.food.name) to \(book.meal(of: $0).rawValue)."
            }
        case .loggedMeal(let id, let part):
            return book.meals.first { $0.id == id }.map {
                "Added \($0.name) to \(part.rawValue): \(NutritionFormat.kcal($0.calories)) kcal."
            }
        case .copied(let count, let from, let meal):
            let foods = count == 1 ? "1 food" : "\(count) foods"
            let source = NutritionFormat.medium(from) + (meal.map { "'s \($0.rawValue)" } ?? "")
            return "Copied \(foods) from \(source)."
        case .favorite(let id):
            return book.favorites.first { $0.id == id }.map { "\($0.food.name) is a favourite: it is one tap away." }
        case .saved(let id, let replaced):
            guard let item = book.items.values.lazy.flatMap({ $0 }).first(where: { $0.id == id }) else { return nil }
            guard !replaced.isEmpty else { return "Saved \(item.food.name)." }
            let names = replaced.compactMap { Self.fieldNames[$0] }
            return "Saved \(item.food.name). Your \(names.joined(separator: " and ")) replaced a change made "
                + "elsewhere after you opened the page."
        }
    }
}
