import Foundation
import Hummingbird
import KithCore

/// Custom meals on the /food pages: made from ingredients (typed, or from the food search), edited
/// after (name, ingredients, amounts), logged as a whole in one operation, deleted.
extension NutritionPages {
    @Sendable func newMealPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        let date = request.uri.formQuery.get(NutritionFields.date).flatMap(LocalDate.init)
        return try renderer.page(NutritionMealModel(rows: [], date: date), title: "New meal", context: context)
    }

    @Sendable func createMeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        return try await submitMeal(form, context, meal: nil) { foods in
            try await operations.submit(
                NutritionOperations.createMeal(name: form[NutritionFields.name], ingredients: foods), by: user,
                form: form
            ) { _ in Self.dayAddress(LocalDate(form[NutritionFields.date])) + "#meals" }
        }
    }

    /// A meal's page: the same form as a new meal, filled with its name and ingredients (each with
    /// its numbers for one serving and the amount the meal holds).
    @Sendable func mealPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let meal = try await nutrition.meal(try Self.id(context, "meal"), for: user)
        let date = request.uri.formQuery.get(NutritionFields.date).flatMap(LocalDate.init)
        let model = NutritionMealModel(
            rows: meal.ingredients.map(FoodForm.init), date: date, meal: meal.id, name: meal.name)
        return try renderer.page(model, title: "Edit \(meal.name)", context: context)
    }

    @Sendable func editMeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "meal")
        let form = try await WebForm.read(request, context: context)
        return try await submitMeal(form, context, meal: id) { foods in
            try await operations.submit(
                NutritionOperations.editMeal(id, name: form[NutritionFields.name], ingredients: foods), by: user,
                form: form
            ) { _ in Self.dayAddress(LocalDate(form[NutritionFields.date])) + "#meal-\(id.lowercased)" }
        }
    }

    /// Reads a meal form's ingredient rows (blank rows left out) and runs `write` with them; a
    /// refusal shows the form again with what was typed and the reason next to its row's field.
    private func submitMeal(
        _ form: WebForm, _ context: AppRequestContext, meal: UUID?, write: ([Food]) async throws -> Response
    ) async throws -> Response {
        let rows: [[String: String]] = (0..<NutritionEntities.ingredientsPerMeal.upperBound * 2).compactMap { index in
            let row = Dictionary(
                uniqueKeysWithValues: Self.ingredientFields.map { ($0, form["ingredients.\(index).\($0)"]) })
            return row.values.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty } ? nil : row
        }
        do {
            var foods: [Food] = []
            for (index, row) in rows.enumerated() {
                do {
                    foods.append(try Self.food { row[$0] ?? "" })
                } catch let error as AppError {
                    var detail = error.detail
                    detail.message = "Ingredient \(index + 1): \(detail.message)"
                    detail.field = "ingredients.\(index).\(detail.field ?? NutritionFields.name)"
                    throw AppError(error.status, detail)
                }
            }
            return try await write(foods)
        } catch let error as AppError where error.status == .unprocessableContent {
            var rowErrors: [Int: FoodErrors] = [:]
            var nameError: String?
            if let field = error.detail.field {
                let parts = field.split(separator: ".")
                if parts.count == 3, parts[0] == "ingredients", let index = Int(parts[1]) {
                    rowErrors[index] = FoodErrors([String(parts[2]): error.detail.message])
                } else if field == NutritionFields.name {
                    nameError = error.detail.message
                }
            }
            let typed = rows.map { row in FoodForm { row[$0] ?? "" } }
            var model = NutritionMealModel(
                rows: typed, date: LocalDate(form[NutritionFields.date]), meal: meal, name: form[NutritionFields.name],
                errors: rowErrors)
            model.error = error.detail.message
            model.nameError = nameError
            return try renderer.page(
                model, title: model.heading, context: context, status: .unprocessableContent)
        }
    }

    @Sendable func logMeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "meal")
        let form = try await WebForm.read(request, context: context)
        do {
            let (date, part) = try await logTarget(form, request, user)
            return try await operations.submit(
                NutritionOperations.logMeal(id, on: date, in: part), by: user, form: form
            ) { _ in
                NutritionNotice.loggedMeal(id, part).address(on: date)
            }
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await page(
                for: user, date: form[NutritionFields.date], request, context, status: .unprocessableContent
            ) {
                $0.mealError = error.detail.message
            }
        }
    }

    @Sendable func confirmMealDeletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let meal = try await nutrition.meal(try Self.id(context, "meal"), for: user)
        let back =
            request.uri.formQuery.get(NutritionFields.date).flatMap(LocalDate.init).map { "/food?date=\($0)" }
            ?? "/food"
        let confirm = ConfirmModel(
            section: .food, question: "Delete the meal \(meal.name)?",
            consequence:
                "It will be removed from your meals on all your devices. Food already logged from it stays in your log.",
            action: "/food/meals/\(meal.id.lowercased)/delete", button: "Delete \(meal.name)", cancel: back + "#meals")
        return try renderer.page(confirm, title: "Delete \(meal.name)?", context: context)
    }

    @Sendable func deleteMeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "meal")
        let form = try await WebForm.read(request, context: context)
        return try await operations.submit(NutritionOperations.deleteMeal(id), by: user, form: form) { _ in
            "/food#meals"
        }
    }
}
