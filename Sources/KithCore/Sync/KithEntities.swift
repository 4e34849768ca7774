import Foundation

extension EntityCatalog {
    /// Every entity of Kith's apps: what `kith serve` accepts and what devices store by default.
    public static let kith = kith(nutritionRetention: .standard)

    /// The same with another retention window for daily logs (`KITH_NUTRITION_RETENTION_DAYS`).
    public static func kith(nutritionRetention: NutritionRetention) -> EntityCatalog {
        EntityCatalog(
            OutreachEntities.all + NutritionEntities.all + FamilyEntities.all,
            rules: OutreachRules.all + NutritionRules.all(retention: nutritionRetention) + FamilyRules.all,
            identities: OutreachFields.identities + NutritionFields.identities)
    }
}
