import Foundation
import Hummingbird
import KithCore

/// What saves typing on the /food pages: copying another day (or one of its meals) and keeping
/// favourite foods. Recent and favourite foods are logged again through the ordinary add form.
extension NutritionPages {
    /// `from` (a day) and optionally `meal`, copied to the form's `date`.
    @Sendable func copy(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            let date = try await loggable(form[NutritionFields.date], request, user)
            let from = try Self.date(form["from"])
            let meal = try Self.mealOfDay(form["meal"])
            return try await operations.submit(NutritionOperations.copy(from: from, meal: meal, to: date), by: user, form: form)
            { items in
                NutritionNotice.copied(count: items.count, from: from, meal: meal).address(on: date)
            }
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await page(
                for: user, date: form[NutritionFields.date], request, context, status: .unprocessableContent
            ) {
                $0.shortcutError = error.detail.message
            }
        }
    }

    /// The food the form carries (for one serving, with its amount) among the favourites.
    @Sendable func addFavorite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let date = LocalDate(form[NutritionFields.date])
        do {
            let food = try Self.food(form)
            return try await operations.submit(NutritionOperations.addFavorite(food), by: user, form: form) {
                favorite in date.map { NutritionNotice.favorite(favorite.id).address(on: $0) } ?? "/food#quick"
            }
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await page(for: user, date: date?.description, request, context, status: .unprocessableContent) {
                $0.shortcutError = error.detail.message
            }
        }
    }

    @Sendable func removeFavorite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "favourite")
        let form = try await WebForm.read(request, context: context)
        // The name is gone with the favourite, and an address carries no words (decision 9): the
        // answer kept with the form's write key is the name, and the page says it.
        let name = try await operations.apply(
            NutritionOperations.removeFavorite(id), userID: user.id.lowercased, key: form.writeKey, request: form.request
        ) { $0.food.name }
        let date = LocalDate(form[NutritionFields.date])
        return try await page(for: user, date: date?.description, request, context) { model in
            model.notice = "\(name) is no longer a favourite."
            model.canonicalPath = Self.dayAddress(date)
        }
    }
}
