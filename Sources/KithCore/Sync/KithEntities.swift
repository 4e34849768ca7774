import Foundation

extension EntityCatalog {
    /// Every entity of Kith's apps: what `kith serve` accepts and what devices store by default.
    public static let kith = EntityCatalog(OutreachEntities.all, rules: OutreachRules.all)
}
