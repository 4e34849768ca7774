import Foundation

/// A food's refused field in the words of the form's label ("Calories must be between 0 and
/// 50,000.", "Enter the food's name.") rather than the rule's ("calories must be between 0 and
/// 50000."). The check is the entity's declaration; this says what it found, on the web, in the
/// command line and in the SDK alike.
public enum NutritionFieldWords {
    /// A food's fields as a sentence names them, and the unit their numbers are in.
    static let labels: [String: (name: String, unit: String)] = [
        NutritionFields.name: ("The name", ""), NutritionFields.calories: ("Calories", ""),
        NutritionFields.protein: ("Protein", " g"), NutritionFields.carbs: ("Carbs", " g"),
        NutritionFields.fat: ("Fat", " g"), NutritionFields.servingSize: ("The serving size", ""),
        NutritionFields.servingUnit: ("The serving unit", ""), NutritionFields.servings: ("The amount", " servings"),
        // The forms' amount eaten (servings, or the serving's measure), read into `servings`.
        "amount": ("The amount", ""),
    ]

    /// `problem` (a declaration's refusal of one of a food's fields) in words; other problems as
    /// they are.
    public static func worded(_ problem: APIErrorDetail) -> APIErrorDetail {
        guard let field = problem.field, let label = labels[field],
            let declared = NutritionEntities.foodFields.first(where: { $0.name == field })
        else { return problem }
        let message: String
        switch declared.type {
        case .number(let range):
            message =
                "\(label.name) must be between \(grouped(range.lowerBound)) and \(grouped(range.upperBound))\(label.unit)."
        case .string(let maxLength, _):
            message =
                problem.message.hasSuffix("is required.")
                ? (field == NutritionFields.name ? "Enter the food's name." : "Enter \(label.name.lowercased()).")
                : problem.message.contains("at most")
                    ? "Shorten \(label.name.lowercased()) to \(maxLength) characters or fewer."
                    : "Remove the invisible control character from \(label.name.lowercased())."
        default: return problem
        }
        return APIErrorDetail(code: problem.code, message: message, field: field)
    }

    /// A typed number that is not one.
    public static func notANumber(_ field: String) -> APIErrorDetail {
        APIErrorDetail(
            .validationFailed, "\(labels[field]?.name ?? field) must be a number, such as 250 or 12.5.", field: field)
    }

    /// A required number left empty.
    public static func missing(_ field: String) -> APIErrorDetail {
        APIErrorDetail(
            .validationFailed, "Enter the \((labels[field]?.name ?? field).lowercased()), such as 250.", field: field)
    }

    /// 50000 as "50,000", 12.5 as "12.5".
    public static func grouped(_ number: Double) -> String {
        guard number == number.rounded(), abs(number) < 1e15 else { return String(number) }
        let digits = String(Int64(abs(number)))
        let body = digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : String(digit)
        }.joined()
        return (number < 0 ? "-" : "") + body
    }
}
