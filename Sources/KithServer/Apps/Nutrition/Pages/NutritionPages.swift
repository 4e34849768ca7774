import Foundation
import Hummingbird
import KithCore

/// The Nutrition pages at /food: a day's log with its goal, the last 30 days, custom
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
    static let ingredientFields = foodFields + [amountField]

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
        pages.post("copy", use: copy)
        pages.post("favorites", use: addFavorite)
        pages.post("favorites/{id}/delete", use: removeFavorite)
        pages.get("meals/new", use: newMealPage)
        pages.post("meals", use: createMeal)
        pages.get("meals/{id}", use: mealPage)
        pages.post("meals/{id}", use: editMeal)
        pages.post("meals/{id}/log", use: logMeal)
        pages.get("meals/{id}/delete", use: confirmMealDeletion)
        pages.post("meals/{id}/delete", use: deleteMeal)
    }

    // MARK: The day

    /// `?date=yyyy-MM-dd` shows that day (today in the reader's zone without it); `&meal=lunch`
    /// makes lunch what the add forms add to.
    @Sendable func dayPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let user = context.user else { return .redirect(to: "/signin", type: .found) }
        let query = request.uri.formQuery
        let book = try await nutrition.book(for: user)
        let notice = NutritionNotice(query)?.text(in: book)
        let target = query.get("meal").flatMap(MealOfDay.init(rawValue:))
        return try await page(
            for: user, date: query.get(NutritionFields.date), request, context, book: book, target: target
        ) {
            $0.notice = notice
        }
    }

    /// The day page for `requested` (today when nil or not a date), as `show` adjusts it.
    func page(
        for user: AuthenticatedUser, date requested: String?, _ request: Request, _ context: AppRequestContext,
        status: HTTPResponse.Status = .ok, book read: NutritionBook? = nil, target: MealOfDay? = nil,
        _ show: (inout NutritionDayModel) -> Void = { _ in }
    ) async throws -> Response {
        let book: NutritionBook
        if let read { book = read } else { book = try await nutrition.book(for: user) }
        let (zone, zoneName) = Self.readerZone(request, goal: book.goal)
        let today = nutrition.today(in: zone)
        let date = requested.flatMap(LocalDate.init) ?? today
        var model = NutritionDayModel(
            book: book, date: date, today: today, window: nutrition.window(today: today), zoneName: zoneName,
            target: target ?? nutrition.mealNow(in: zone))
        show(&model)
        return try renderer.page(
            model, title: "Food · \(NutritionFormat.medium(date))", context: context, status: status)
    }

    // MARK: Items

    @Sendable func addItem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let form = try await WebForm.read(request, context: context)
        do {
            let (date, meal) = try await logTarget(form, request, user)
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
                NutritionOperations.log(food, source: source, on: date, meal: meal), by: user, form: form
            ) {
                // The next food goes to the same meal unless the person chooses another.
                item in NutritionNotice.added(item.id).address(on: date) + "&meal=\(meal.rawValue)"
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
            if let meal = MealOfDay(rawValue: form[NutritionFields.mealOfDay]) { model.choose(meal) }
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
        let meal = try await nutrition.book(for: user).meal(of: item)
        return try renderer.page(
            NutritionItemModel(item, on: date, meal: meal), title: "Edit \(item.food.name)", context: context)
    }

    @Sendable func editItem(_ request: Request, context: AppRequestContext) async throws -> Response {
        let user = try context.requireUser()
        let id = try Self.id(context, "food")
        let form = try await WebForm.read(request, context: context)
        do {
            let problems = Self.foodProblems { form[$0] }
            guard problems.isEmpty else { throw FoodProblems(problems: problems) }
            let seenMeal = form.seen(marker: NutritionFields.name).flatMap {
                MealOfDay(rawValue: $0(NutritionFields.mealOfDay))
            }
            let edit = NutritionOperations.editItem(
                id, to: try Self.food(form), meal: try Self.mealOfDay(form[NutritionFields.mealOfDay]),
                seen: Self.seenFood(form), seenMeal: seenMeal)
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
        var model = NutritionItemModel(
            item, on: date, meal: MealOfDay(rawValue: form[NutritionFields.mealOfDay]) ?? item.mealOfDay ?? .snacks)
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
    func loggable(_ text: String, _ request: Request, _ user: AuthenticatedUser) async throws -> LocalDate {
        try loggable(text, today: try await today(nil, request, user))
    }

    private func loggable(_ text: String, today: LocalDate) throws -> LocalDate {
        let date = try Self.date(text)
        if date > today { throw AppError.validation(nutrition.retention.futureRefusal(date)) }
        return date
    }

    /// Where a form logs food: its day (as `loggable` checks it) and its meal of the day (the
    /// one it chose, else the one it is time for), both in the reader's zone, read once.
    func logTarget(_ form: WebForm, _ request: Request, _ user: AuthenticatedUser) async throws -> (
        date: LocalDate, meal: MealOfDay
    ) {
        let zone = Self.zone(request, goal: try await nutrition.book(for: user).goal)
        let date = try loggable(form[NutritionFields.date], today: nutrition.today(in: zone))
        return (date, try Self.mealOfDay(form[NutritionFields.mealOfDay]) ?? nutrition.mealNow(in: zone))
    }

    /// Today in the zone the form sent, else in the reader's zone.
    private func today(_ sent: TimeZone?, _ request: Request, _ user: AuthenticatedUser) async throws -> LocalDate {
        if let sent { return nutrition.today(in: sent) }
        return nutrition.today(in: Self.zone(request, goal: try await nutrition.book(for: user).goal))
    }

    // MARK: Reading forms

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
