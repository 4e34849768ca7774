import Foundation
import Hummingbird
import KithCore

/// The Nutrition pages (seed 002) at /food: a day's log with its goal, the last 30 days, custom
/// meals. Every action is a plain CSRF-checked form; food.js adds the food search, the browser's
/// time zone, and live updates over `/v1/live`.
struct NutritionPages {
    let nutrition: NutritionService
    let operations: OperationWriter
    let renderer: WebRenderer
    let session: WebSessionMiddleware

    static let foodFields = [
        NutritionFields.name, NutritionFields.calories, NutritionFields.protein, NutritionFields.carbs,
        NutritionFields.fat, NutritionFields.servingSize, NutritionFields.servingUnit,
    ]
    static let ingredientFields = foodFields

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group("food").add(middleware: session)
        pages.get(use: dayPage)
        pages.post("items", use: addItem)
        pages.get("items/{id}", use: itemPage)
        pages.post("items/{id}", use: editItem)
        pages.get("items/{id}/delete", use: confirmItemDeletion)
        pages.post("items/{id}/delete", use: deleteItem)
        pages.post("goal", use: setGoal)
        pages.post("goal/clear", use: clearGoal)
        pages.get("meals/new", use: newMealPage)
        pages.post("meals", use: createMeal)
        pages.post("meals/{id}/log", use: logMeal)
        pages.get("meals/{id}/delete", use: confirmMealDeletion)
        pages.post("meals/{id}/delete", use: deleteMeal)
    }

    // MARK: The day

    /// `?date=yyyy-MM-dd` shows that day (today in the reader's zone without it).
    @Sendable func dayPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let query = request.uri.formQuery
        let book = try await nutrition.book(for: user)
        let notice = NutritionNotice(query)?.text(in: book)
        return try await page(for: user, date: query.get(NutritionFields.date), request, context, book: book) {
            $0.notice = notice
        }
    }

    /// The day page for `requested` (today when nil or not a date), as `show` adjusts it.
    private func page(
        for user: AuthenticatedUser, date requested: String?, _ request: Request, _ context: AppRequestContext,
        status: HTTPResponse.Status = .ok, book read: NutritionBook? = nil,
        _ show: (inout NutritionDayModel) -> Void = { _ in }
    ) async throws -> Response {
        let book: NutritionBook
        if let read { book = read } else { book = try await nutrition.book(for: user) }
        let (zone, zoneName) = Self.readerZone(request, goal: book.goal)
        let today = nutrition.today(in: zone)
        let date = requested.flatMap(LocalDate.init) ?? today
        var model = NutritionDayModel(
            book: book, date: date, today: today, window: nutrition.window(today: today), zoneName: zoneName)
        show(&model)
        return try renderer.page(
            model, title: "Food · \(NutritionFormat.medium(date))", context: context, status: status)
    }

    // MARK: Items

    @Sendable func addItem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            let date = try await loggable(form[NutritionFields.date], request, user)
            guard
                let source = FoodSource(
                    rawValue: form[NutritionFields.source].isEmpty ? "manual" : form[NutritionFields.source]),
                source != .meal
            else {
                throw AppError(
                    .unprocessableContent, .validationFailed, "source must be manual or search.",
                    field: NutritionFields.source)
            }
            let problems = Self.foodProblems { form[$0] }
            guard problems.isEmpty else {
                return try await refusedItem(problems: problems, form: form, user: user, request, context)
            }
            let food = try Self.food(form)
            return try await operations.submit(
                NutritionOperations.log(food, source: source, on: date), by: user, form: form
            ) {
                item in NutritionNotice.added(item.id).address(on: date)
            }
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await refusedItem(error, form: form, user: user, request, context)
        }
    }

    /// The day page again with the reason next to the field at fault and what was typed.
    private func refusedItem(
        _ error: AppError? = nil, problems: [String: String] = [:], form: WebForm, user: AuthenticatedUser,
        _ request: Request, _ context: AppRequestContext
    ) async throws -> Response {
        try await page(for: user, date: form[NutritionFields.date], request, context, status: .unprocessableContent) {
            model in
            model.form = FoodForm { form[$0] }
            model.openAdd = true
            if !problems.isEmpty {
                model.errors = FoodErrors(problems)
            } else if let error {
                if let errors = FoodErrors(error) {
                    model.errors = errors
                } else {
                    model.itemError = error.detail.message
                }
            }
        }
    }

    @Sendable func itemPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let (item, date) = try await nutrition.item(try Self.id(context, "food"), for: user)
        return try renderer.page(NutritionItemModel(item, on: date), title: "Edit \(item.food.name)", context: context)
    }

    @Sendable func editItem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "food")
        let form = try await WebForm.read(request, context: context)
        do {
            let problems = Self.foodProblems { form[$0] }
            guard problems.isEmpty else { throw FoodProblems(problems: problems) }
            let edit = NutritionOperations.editItem(id, to: try Self.food(form), seen: Self.seenFood(form))
            return try await operations.submit(edit, by: user, form: form) { edit in
                NutritionNotice.saved(edit.after.id, replaced: edit.replaced.map(\.field)).address(on: edit.date)
            }
        } catch let refusal as FoodProblems {
            return try await refusedEdit(id, errors: FoodErrors(refusal.problems), form: form, user, context)
        } catch let error as AppError where error.status == .unprocessableContent {
            if let errors = FoodErrors(error) {
                return try await refusedEdit(id, errors: errors, form: form, user, context)
            }
            return try await refusedEdit(id, error: error.detail.message, form: form, user, context)
        }
    }

    /// Every problem of a food form at once, by field.
    struct FoodProblems: Error {
        let problems: [String: String]
    }

    /// The edit page again with what was typed and why it was refused.
    private func refusedEdit(
        _ id: UUID, errors: FoodErrors? = nil, error: String? = nil, form: WebForm, _ user: AuthenticatedUser,
        _ context: AppRequestContext
    ) async throws -> Response {
        let (item, date) = try await nutrition.item(id, for: user)
        var model = NutritionItemModel(item, on: date)
        model.form = FoodForm { form[$0] }
        // Still what the person first saw: a refusal must not make another tab's change look theirs.
        if let seen = form.seen(marker: NutritionFields.name) { model.seen = FoodForm(seen) }
        if let errors { model.errors = errors }
        model.error = error
        return try renderer.page(
            model, title: "Edit \(item.food.name)", context: context, status: .unprocessableContent)
    }

    /// The food as the edit page showed it (`seen.…`), so a save writes only what the person
    /// changed; nil for a form that does not say (docs/sync.md, "A write says what it saw").
    static func seenFood(_ form: WebForm) -> Food? {
        form.seen(marker: NutritionFields.name).flatMap { try? food($0) }
    }

    @Sendable func confirmItemDeletion(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let (item, date) = try await nutrition.item(try Self.id(context, "food"), for: user)
        let confirm = ConfirmModel(
            section: .food, question: "Delete \(item.food.name)?",
            consequence:
                "\(NutritionFormat.kcal(item.food.calories)) kcal will be taken off \(NutritionFormat.long(date)), on all your devices.",
            action: "/food/items/\(item.id.lowercased)/delete", button: "Delete \(item.food.name)",
            cancel: "/food?date=\(date)")
        return try renderer.page(confirm, title: "Delete \(item.food.name)?", context: context)
    }

    @Sendable func deleteItem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "food")
        let form = try await WebForm.read(request, context: context)
        // The name is gone with the item, and an address carries no words (decision 9): the answer,
        // kept with the form's write key, is the day and the name, and the day page says it.
        let answer = try await operations.apply(
            NutritionOperations.deleteItem(id), userID: user.id.lowercased, key: form.writeKey, request: form.request
        ) { deleted in "\(deleted.date)\n\(deleted.item.food.name)" }
        let parts = answer.split(separator: "\n", maxSplits: 1).map(String.init)
        let date = parts.first.flatMap(LocalDate.init)
        return try await page(for: user, date: date?.description, request, context) { model in
            model.notice = parts.count == 2 ? "Deleted \(parts[1])." : nil
            model.canonicalPath = Self.dayAddress(date)
        }
    }

    // MARK: Goal

    @Sendable func setGoal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            let zone = try Self.zone(form[NutritionFields.timeZone])
            let text = form[NutritionFields.dailyCalories].trimmingCharacters(in: .whitespaces)
            guard let calories = Int64(text) else {
                throw AppError(
                    .unprocessableContent, .validationFailed,
                    text.isEmpty
                        ? "Enter the daily goal, in calories."
                        : "The daily goal must be a whole number of calories, such as 2000.",
                    field: NutritionFields.dailyCalories)
            }
            let today = try await today(zone, request, user)
            let set = NutritionOperations.setGoal(calories, timeZone: zone, today: today)
            return try await operations.submit(set, by: user, form: form) { _ in
                Self.dayAddress(LocalDate(form[NutritionFields.date]))
            }
        } catch let error as AppError where error.status == .unprocessableContent {
            return try await page(
                for: user, date: form[NutritionFields.date], request, context, status: .unprocessableContent
            ) {
                model in
                model.goalForm = .init(dailyCalories: form[NutritionFields.dailyCalories])
                if let errors = NutritionDayModel.GoalErrors(error) {
                    model.goalErrors = errors
                } else {
                    model.goalError = error.detail.message
                }
            }
        }
    }

    @Sendable func clearGoal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let zone = try Self.zone(form[NutritionFields.timeZone])
        let today = try await today(zone, request, user)
        let clear = NutritionOperations.setGoal(nil, timeZone: nil, today: today)
        return try await operations.submit(clear, by: user, form: form) { _ in
            Self.dayAddress(LocalDate(form[NutritionFields.date]))
        }
    }

    /// The day a form logs to: refused when it has not begun in the reader's zone. The server's
    /// rule refuses only what has begun nowhere (it can't know a device's zone); the page knows
    /// the reader's.
    private func loggable(_ text: String, _ request: Request, _ user: AuthenticatedUser) async throws -> LocalDate {
        let date = try Self.date(text)
        if date > (try await today(nil, request, user)) {
            throw AppError.validation(nutrition.retention.futureRefusal(date))
        }
        return date
    }

    /// Today in the zone the form sent, else in the reader's zone.
    private func today(_ sent: TimeZone?, _ request: Request, _ user: AuthenticatedUser) async throws -> LocalDate {
        if let sent { return nutrition.today(in: sent) }
        return nutrition.today(in: Self.zone(request, goal: try await nutrition.book(for: user).goal))
    }

    // MARK: Meals

    @Sendable func newMealPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        let date = request.uri.formQuery.get(NutritionFields.date).flatMap(LocalDate.init)
        return try renderer.page(NutritionMealModel(rows: [], date: date), title: "New meal", context: context)
    }

    @Sendable func createMeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        let date = LocalDate(form[NutritionFields.date])
        // The rows something was typed in, in order; blank rows are left out.
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
            let create = NutritionOperations.createMeal(name: form[NutritionFields.name], ingredients: foods)
            return try await operations.submit(create, by: user, form: form) { _ in Self.dayAddress(date) + "#meals" }
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
            var model = NutritionMealModel(rows: typed, date: date, errors: rowErrors)
            model.error = error.detail.message
            model.name = form[NutritionFields.name]
            model.nameError = nameError
            return try renderer.page(model, title: "New meal", context: context, status: .unprocessableContent)
        }
    }

    @Sendable func logMeal(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "meal")
        let form = try await WebForm.read(request, context: context)
        do {
            let date = try await loggable(form[NutritionFields.date], request, user)
            return try await operations.submit(NutritionOperations.logMeal(id, on: date), by: user, form: form) { _ in
                NutritionNotice.loggedMeal(id).address(on: date)
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

    // MARK: Reading forms

    /// A food from a form's fields: name and calories required, the other numbers optional.
    static func food(_ form: WebForm) throws -> Food { try food { form[$0] } }

    static func food(_ value: (String) -> String) throws -> Food {
        func number(_ field: String, required: Bool) throws -> Double? {
            try Self.number(value(field), field, required: required)
        }
        let unit = value(NutritionFields.servingUnit).trimmingCharacters(in: .whitespaces)
        return Food(
            name: value(NutritionFields.name), calories: try number(NutritionFields.calories, required: true) ?? 0,
            protein: try number(NutritionFields.protein, required: false),
            carbs: try number(NutritionFields.carbs, required: false),
            fat: try number(NutritionFields.fat, required: false),
            servingSize: try number(NutritionFields.servingSize, required: false),
            servingUnit: unit.isEmpty ? nil : unit)
    }

    /// Every problem of a food form's fields at once, in the words of their labels, by field
    /// (empty when the food may be written): what could not be read as a number, then what the
    /// declaration refuses of the rest.
    static func foodProblems(_ value: (String) -> String) -> [String: String] {
        var problems: [String: String] = [:]
        for field in [
            NutritionFields.calories, NutritionFields.protein, NutritionFields.carbs, NutritionFields.fat,
            NutritionFields.servingSize,
        ] {
            do throws(AppError) {
                _ = try number(value(field), field, required: field == NutritionFields.calories)
            } catch {
                problems[field] = error.detail.message
            }
        }
        // The fields that could not be read are left out (calories as 0), so each is said once.
        let readable =
            (try? food { field in problems[field] == nil ? value(field) : field == NutritionFields.calories ? "0" : "" })
            ?? Food(name: value(NutritionFields.name), calories: 0)
        for problem in NutritionFields.problems(with: readable) {
            guard let field = problem.field, problems[field] == nil else { continue }
            problems[field] = problem.message
        }
        return problems
    }

    /// A number field: nil when left empty (refused when `required`), refused when not a number.
    static func number(_ typed: String, _ field: String, required: Bool) throws(AppError) -> Double? {
        let text = typed.trimmingCharacters(in: .whitespaces)
        if text.isEmpty {
            if required { throw AppError.validation(NutritionFieldWords.missing(field)) }
            return nil
        }
        guard let number = DecimalText.parse(text), number.isFinite else {
            throw AppError.validation(NutritionFieldWords.notANumber(field))
        }
        return number
    }

    static func date(_ text: String) throws -> LocalDate {
        guard let date = LocalDate(text) else {
            throw AppError(
                .unprocessableContent, .validationFailed, "date must be a day such as 2026-11-24.",
                field: NutritionFields.date)
        }
        return date
    }

    /// A time zone the page sent; nil when it sent none; refused when it is not a real one.
    static func zone(_ text: String) throws -> TimeZone? {
        let name = text.trimmingCharacters(in: .whitespaces)
        if name.isEmpty { return nil }
        guard let zone = TimeZone(identifier: name) else {
            throw AppError(
                .unprocessableContent, .validationFailed, "timeZone must be an IANA time zone such as Europe/Paris.",
                field: NutritionFields.timeZone)
        }
        return zone
    }

    /// The reader's zone: the browser's (food.js's cookie), else the goal's, else UTC.
    static func zone(_ request: Request, goal: NutritionGoal?) -> TimeZone { readerZone(request, goal: goal).zone }

    /// The reader's zone and its name as the browser wrote it (Foundation calls "UTC" "GMT": the
    /// page compares names to tell whether the server used the browser's zone).
    static func readerZone(_ request: Request, goal: NutritionGoal?) -> (zone: TimeZone, name: String) {
        if let reader = WebTime.readerZone(request) { return reader }
        let zone = goal?.timeZone ?? .gmt
        return (zone, zone.identifier)
    }

    static func dayAddress(_ date: LocalDate?) -> String { date.map { "/food?date=\($0)" } ?? "/food" }

    static func id(_ context: AppRequestContext, _ what: String) throws -> UUID {
        guard let id = UUID(text: context.parameters.get("id") ?? "") else { throw AppError.notFound("That \(what)") }
        return id
    }
}
