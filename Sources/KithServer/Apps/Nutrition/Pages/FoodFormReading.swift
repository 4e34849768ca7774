import Foundation
import KithCore

/// A food as the /food forms send it: its numbers for one serving, and the amount eaten
/// (`amount`: servings, or the measure of a food whose serving is one, "150" g of a food per 100 g),
/// read into the food for that amount. Every problem is said at once, next to its field.
extension NutritionPages {
    /// The form field of the amount eaten.
    static let amountField = "amount"

    /// A food from a form's fields: name and calories required, the other numbers optional.
    static func food(_ form: WebForm) throws -> Food { try food { form[$0] } }

    static func food(_ value: (String) -> String) throws -> Food {
        func number(_ field: String, required: Bool) throws -> Double? {
            try Self.number(value(field), field, required: required)
        }
        let unit = value(NutritionFields.servingUnit).trimmingCharacters(in: .whitespaces)
        let serving = Food(
            name: value(NutritionFields.name), calories: try number(NutritionFields.calories, required: true) ?? 0,
            protein: try number(NutritionFields.protein, required: false),
            carbs: try number(NutritionFields.carbs, required: false),
            fat: try number(NutritionFields.fat, required: false),
            servingSize: try number(NutritionFields.servingSize, required: false),
            servingUnit: unit.isEmpty ? nil : unit)
        return serving.scaled(toServings: try servings(value(amountField), of: serving))
    }

    /// How many servings the typed amount is (one when left empty).
    static func servings(_ typed: String, of food: Food) throws(AppError) -> Double {
        let refusal = AppError.validation(
            APIErrorDetail(
                .validationFailed,
                food.isMeasured
                    ? "The amount must be a number of \(food.amountUnit) more than 0, such as 150."
                    : "The amount must be a number of servings more than 0, such as 2 or 0.5.",
                field: amountField))
        guard let amount = try number(typed, amountField, required: false) else { return 1 }
        guard let servings = food.servings(forAmount: amount) else { throw refusal }
        guard NutritionEntities.servingsRange.contains(servings) else {
            throw AppError.validation(
                APIErrorDetail(
                    .validationFailed,
                    "The amount must be between \(Food.amountText(NutritionEntities.servingsRange.lowerBound)) and "
                        + "\(NutritionFieldWords.grouped(NutritionEntities.servingsRange.upperBound)) servings.",
                    field: amountField))
        }
        return servings
    }

    /// Every problem of a food form's fields at once, in the words of their labels, by field
    /// (empty when the food may be written): what could not be read as a number, then what the
    /// declaration refuses of the rest.
    static func foodProblems(_ value: (String) -> String) -> [String: String] {
        var problems: [String: String] = [:]
        for field in [
            NutritionFields.calories, NutritionFields.protein, NutritionFields.carbs, NutritionFields.fat,
            NutritionFields.servingSize, amountField,
        ] {
            do throws(AppError) {
                _ = try number(value(field), field, required: field == NutritionFields.calories)
            } catch {
                problems[field] = error.detail.message
            }
        }
        // The fields that could not be read are left out (calories as 0), so each is said once.
        let problemFields = problems
        func readable(_ field: String) -> String {
            problemFields[field] == nil ? value(field) : field == NutritionFields.calories ? "0" : ""
        }
        let serving = (try? food { $0 == amountField ? "" : readable($0) }) ?? Food(name: value(NutritionFields.name), calories: 0)
        do throws(AppError) {
            _ = try servings(readable(amountField), of: serving)
        } catch {
            problems[amountField] = problems[amountField] ?? error.detail.message
        }
        let eaten = (try? food(readable)) ?? serving
        for problem in NutritionFields.problems(with: eaten) {
            // The stored `servings` is the form's amount.
            guard let declared = problem.field else { continue }
            let field = declared == NutritionFields.servings ? amountField : declared
            if problems[field] == nil { problems[field] = problem.message }
        }
        return problems
    }

    /// The meal of the day a form chose; nil when it chose none.
    static func mealOfDay(_ typed: String) throws -> MealOfDay? {
        let text = typed.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return nil }
        guard let meal = MealOfDay(rawValue: text) else {
            throw AppError(
                .unprocessableContent, .validationFailed, "Choose breakfast, lunch, dinner or snacks.",
                field: NutritionFields.mealOfDay)
        }
        return meal
    }
}
