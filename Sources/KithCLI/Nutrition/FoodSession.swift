import Foundation
import KithCore
import KithKit

/// What every `kith food` command works with: the profile's device session and the Nutrition app
/// over it. A sync before and after (when signed in), then the expired days purged, as an app does
/// after each sync.
@MainActor
struct FoodSession: AppSession {
    let device: DeviceSession
    let nutrition: NutritionStore
    var output: Output { device.output }

    init(_ profile: Profile, output: Output) async throws {
        device = try await DeviceSession(profile, output: output)
        nutrition = NutritionStore(store: device.store)
    }

    func sync() async {
        await device.syncIfReachable()
        _ = try? nutrition.purgeExpired()
    }

    /// The item whose id is `text` or starts with it.
    func item(_ text: String) throws -> FoodItem {
        let match = try DeviceSession.record(
            text, among: try device.store.records(NutritionEntities.item.name), kind: "food item")
        guard let item = try nutrition.item(match.id) else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No food item with id \(text)."))
        }
        return item
    }

    /// The custom meal named `text` (ignoring case), or whose id is `text` or starts with it.
    func meal(_ text: String) throws -> CustomMeal {
        let meals = try nutrition.book().meals
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let named = meals.first(where: { $0.name.caseInsensitiveCompare(trimmed) == .orderedSame }) { return named }
        let match = try DeviceSession.record(
            text, among: try device.store.records(NutritionEntities.meal.name), kind: "meal")
        guard let meal = meals.first(where: { $0.id == match.id }) else {
            throw KithError.invalid(APIErrorDetail(.notFound, "No meal named \(text)."))
        }
        return meal
    }

    /// A date given on the command line, or today.
    func date(_ text: String?) throws -> LocalDate {
        guard let text else { return nutrition.today }
        guard let date = LocalDate(text) else {
            throw KithError.invalid(
                APIErrorDetail(.validationFailed, "\(text) is not a date (yyyy-MM-dd).", field: NutritionFields.date))
        }
        return date
    }
}
