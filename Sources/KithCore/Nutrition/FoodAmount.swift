import Foundation

/// How much of a food was eaten: a count of servings ("2 × 1 banana") or, for a food whose
/// serving is a measure, that measure ("150 g" of a food known per 100 g). The numbers scale with
/// the amount; the serving itself stays as the food describes it.
extension Food {
    /// How many servings the numbers are for.
    public var servingCount: Double { servings ?? 1 }

    /// The same food for `count` servings: every number scales, kept to hundredths so a food
    /// rescaled many times does not drift.
    public func scaled(toServings count: Double) -> Food {
        let factor = count / servingCount
        func scale(_ value: Double?) -> Double? { value.map { Self.hundredths($0 * factor) } }
        var food = self
        food.calories = Self.hundredths(calories * factor)
        food.protein = scale(protein)
        food.carbs = scale(carbs)
        food.fat = scale(fat)
        food.servings = count == 1 ? nil : count
        return food
    }

    /// The numbers for one serving.
    public var perServing: Food { scaled(toServings: 1) }

    /// Whether the serving is a measure (grams, millilitres, ounces), so an amount is said in it.
    public var isMeasured: Bool {
        guard let unit = servingUnit?.trimmingCharacters(in: .whitespaces).lowercased(), servingSize != nil else {
            return false
        }
        return Self.measures.contains(unit)
    }

    static let measures: Set<String> = [
        "g", "gr", "gram", "grams", "ml", "millilitre", "millilitres", "milliliter", "milliliters", "oz", "ounce",
        "ounces", "fl oz",
    ]

    /// The amount in the words a form's amount field takes: the measure of a measured food (150 for
    /// "150 g"), else the count of servings (2).
    public var typedAmount: Double {
        if isMeasured, let size = servingSize { return Self.hundredths(size * servingCount) }
        return servingCount
    }

    /// What the amount field's number means for this food: "g" for a measured food, else "servings".
    public var amountUnit: String { isMeasured ? (servingUnit ?? "") : "servings" }

    /// How many servings a typed amount is (see `typedAmount`); nil when it is not a positive number.
    public func servings(forAmount amount: Double) -> Double? {
        guard amount.isFinite, amount > 0 else { return nil }
        if isMeasured, let size = servingSize, size > 0 { return amount / size }
        return amount
    }

    /// The amount eaten as a person says it: "150 g", "2 × 1 banana", "1 cup", "2 servings"; nil
    /// for one serving of an unknown size.
    public var amount: String? {
        if isMeasured, let unit = servingUnit { return "\(Self.amountText(typedAmount)) \(unit)" }
        let count = servingCount
        if count == 1 { return serving }
        guard let serving else { return "\(Self.amountText(count)) servings" }
        return "\(Self.amountText(count)) × \(serving)"
    }

    /// An amount as a person writes it, to hundredths: "2", "1.5", "0.25", "150".
    public static func amountText(_ value: Double) -> String {
        let text = String(format: "%.2f", value)
        guard text.contains(".") else { return text }
        return String(text.reversed().drop { $0 == "0" }.drop { $0 == "." }.reversed())
    }

    /// Two foods are the same food when their names (ignoring case) and servings are: how recent
    /// foods are told apart and a favourite is found again.
    public func isSameFood(as other: Food) -> Bool {
        name.trimmedWhitespace.lowercased() == other.name.trimmedWhitespace.lowercased()
            && servingSize == other.servingSize
            && (servingUnit ?? "").lowercased() == (other.servingUnit ?? "").lowercased()
    }

    static func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
