import Foundation

/// One food of the built-in list (`BuiltInFoods`): its numbers per 100 g as USDA publishes them, and
/// a household serving (a medium banana, a cup of milk) when people usually count in those.
public struct BuiltInFood: Sendable, Equatable {
    /// A household serving: "medium" weighing 118 g.
    public struct Household: Sendable, Equatable {
        public let unit: String
        public let grams: Double
    }

    /// Unique in the list; what a person searches for ("Banana, raw").
    public let name: String
    /// The USDA National Nutrient Database number (SR Legacy's NDB number) the numbers come from,
    /// when one was recorded; look it up at https://fdc.nal.usda.gov.
    public let ndb: String?
    /// kcal per 100 g.
    public let calories: Double
    /// Grams per 100 g.
    public let protein: Double
    public let carbs: Double
    public let fat: Double
    /// Grams of alcohol per 100 g (7 kcal each): only drinks have it, and only for checking the
    /// calories against the macros (`Food` has no field for it).
    public let alcohol: Double
    public let household: Household?

    public init(
        _ name: String, ndb: String?, calories: Double, protein: Double, carbs: Double, fat: Double,
        alcohol: Double = 0, household: Household? = nil
    ) {
        self.name = name
        self.ndb = ndb
        self.calories = calories
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.alcohol = alcohol
        self.household = household
    }

    /// The food per 100 g.
    public var per100Grams: Food {
        Food(
            name: name, calories: calories, protein: protein, carbs: carbs, fat: fat, servingSize: 100, servingUnit: "g"
        )
    }

    /// The food per household serving ("1 medium (118 g)"), its numbers scaled from 100 g and rounded
    /// as a label does (whole kcal, tenths of a gram).
    public var perHouseholdServing: Food? {
        guard let household else { return nil }
        let factor = household.grams / 100
        func tenths(_ value: Double) -> Double { (value * factor * 10).rounded() / 10 }
        return Food(
            name: name, calories: (calories * factor).rounded(), protein: tenths(protein), carbs: tenths(carbs),
            fat: tenths(fat), servingSize: 1, servingUnit: "\(household.unit) (\(Food.format(household.grams)) g)")
    }

    /// What a search offers for this food: the household serving first when there is one, then 100 g.
    public var servings: [Food] { [perHouseholdServing, per100Grams].compactMap { $0 } }
}
