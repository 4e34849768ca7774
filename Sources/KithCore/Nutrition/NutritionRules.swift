import Foundation

/// Nutrition's rules across records (docs/nutrition.md "Rules"), checked by the server inside the
/// mutation's transaction and by devices before they write:
/// - a day's id is the one derived from the account and its date, and its date never changes;
/// - a day is written only inside the retention window, and deleted only once it left it (deleting
///   a day would leave a tombstone that refuses that date forever: people delete items instead);
/// - an item belongs to a day that exists, and is added only to a day inside the window;
/// - a day is never in the future (a date far ahead would never be purged);
/// - an ingredient belongs to a meal that exists, which holds at most 30; a day's items and a
///   meal's ingredients go with it;
/// - the goal is the account's one record, cleared with null and never deleted (a deletion would
///   refuse every later goal), and its time zone is a real one.
public enum NutritionRules {
    public static func all(retention: NutritionRetention = .standard) -> [any RecordRule] {
        [DayRule(retention: retention), ItemRule(retention: retention), IngredientRule(), MealRule(), GoalRule()]
    }

    static let dayEntity = NutritionEntities.day.name
    static let itemEntity = NutritionEntities.item.name

    /// The date of a day record, if it holds one.
    static func date(of record: SyncRecord) -> LocalDate? {
        record.fields[NutritionFields.date]?.stringValue.flatMap(LocalDate.init)
    }

    /// Live records of `entity` whose `field` points at `id`.
    static func children(of id: UUID, in records: [SyncRecord]?, field: String) -> [SyncRecord] {
        let key = JSONTree.string(id.lowercased)
        return (records ?? []).filter { $0.fields[field] == key }
    }

    struct DayRule: RecordRule {
        let retention: NutritionRetention
        var entity: String { NutritionRules.dayEntity }
        var reads: [String] { [] }
        var cascadeReads: [String] { [NutritionRules.itemEntity] }

        func problem(
            with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext
        )
            -> APIErrorDetail?
        {
            switch mutation.op {
            case .delete:
                guard let current, let date = NutritionRules.date(of: current) else { return nil }
                if retention.allowsPurge(of: date, context) { return nil }
                return APIErrorDetail(
                    .dayKept,
                    "A day is deleted only when it is more than \(retention.days) days old; delete its items instead.")
            case .upsert:
                guard let text = mutation.fields[NutritionFields.date]?.stringValue, let date = LocalDate(text) else {
                    return nil
                }
                if let current, let stored = NutritionRules.date(of: current), stored != date {
                    return APIErrorDetail(.validationFailed, "A day's date can't change.", field: NutritionFields.date)
                }
                if mutation.id != NutritionFields.dayID(scope: mutation.scope, date: date) {
                    return APIErrorDetail(
                        .dayID, "A day's id must be the one derived from the account and the date.",
                        field: "id")
                }
                if current == nil, !retention.accepts(date, context) { return retention.refusal(date) }
                if current == nil, retention.isInFuture(date, context) { return retention.futureRefusal(date) }
                return nil
            }
        }

        func cascade(of mutation: Mutation, records: [String: [SyncRecord]]) -> [SyncRecord] {
            mutation.op == .delete
                ? NutritionRules.children(
                    of: mutation.id, in: records[NutritionRules.itemEntity], field: NutritionFields.logId) : []
        }
    }

    struct ItemRule: RecordRule {
        let retention: NutritionRetention
        var entity: String { NutritionRules.itemEntity }
        var reads: [String] { [NutritionRules.dayEntity] }

        func problem(
            with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext
        )
            -> APIErrorDetail?
        {
            guard mutation.op == .upsert else { return nil }
            if let current,
                mutation.fields[NutritionFields.logId].map({ $0 != current.fields[NutritionFields.logId] }) == true
            {
                return APIErrorDetail(
                    .validationFailed, "An item can't move to another day; delete it and log it again.",
                    field: NutritionFields.logId)
            }
            guard current == nil, let logText = mutation.fields[NutritionFields.logId]?.stringValue else { return nil }
            guard
                let day = (records[NutritionRules.dayEntity] ?? []).first(where: {
                    $0.id.lowercased == logText.lowercased()
                })
            else {
                return APIErrorDetail(
                    .notFound, "This item's day does not exist (it may have been deleted).",
                    field: NutritionFields.logId)
            }
            if let date = NutritionRules.date(of: day), !retention.accepts(date, context) {
                return retention.refusal(date)
            }
            return nil
        }
    }

    struct MealRule: RecordRule {
        var entity: String { NutritionEntities.meal.name }
        var reads: [String] { [] }
        var cascadeReads: [String] { [NutritionEntities.ingredient.name] }

        func problem(
            with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext
        )
            -> APIErrorDetail?
        { nil }

        func cascade(of mutation: Mutation, records: [String: [SyncRecord]]) -> [SyncRecord] {
            guard mutation.op == .delete else { return [] }
            return NutritionRules.children(
                of: mutation.id, in: records[NutritionEntities.ingredient.name], field: NutritionFields.mealId)
        }
    }

    struct IngredientRule: RecordRule {
        var entity: String { NutritionEntities.ingredient.name }
        var reads: [String] { [NutritionEntities.meal.name, NutritionEntities.ingredient.name] }

        func problem(
            with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext
        )
            -> APIErrorDetail?
        {
            guard mutation.op == .upsert, let mealText = mutation.fields[NutritionFields.mealId]?.stringValue else {
                return nil
            }
            if let current, current.fields[NutritionFields.mealId]?.stringValue?.lowercased() != mealText.lowercased() {
                return APIErrorDetail(
                    .validationFailed, "An ingredient can't move to another meal.", field: NutritionFields.mealId)
            }
            let meals = records[NutritionEntities.meal.name] ?? []
            guard let meal = meals.first(where: { $0.id.lowercased == mealText.lowercased() }) else {
                return APIErrorDetail(
                    .notFound, "This ingredient's meal does not exist (it may have been deleted).",
                    field: NutritionFields.mealId)
            }
            // The limit the pages and devices state, whoever writes: a new ingredient may not make more.
            guard current == nil else { return nil }
            let held = NutritionRules.children(
                of: meal.id, in: records[NutritionEntities.ingredient.name], field: NutritionFields.mealId)
            return held.count >= NutritionEntities.ingredientsPerMeal.upperBound
                ? NutritionEntities.ingredientCountProblem(held.count + 1) : nil
        }
    }

    struct GoalRule: RecordRule {
        var entity: String { NutritionEntities.goal.name }
        var reads: [String] { [] }

        func problem(
            with mutation: Mutation, current: SyncRecord?, records: [String: [SyncRecord]], context: RuleContext
        )
            -> APIErrorDetail?
        {
            guard mutation.op == .upsert else {
                return APIErrorDetail(.goalKept, "The goal is cleared, not deleted: set dailyCalories to null.")
            }
            if mutation.id != NutritionFields.goalID(scope: mutation.scope) {
                return APIErrorDetail(.goalID, "An account has one goal, with the id derived from it.", field: "id")
            }
            if let zone = mutation.fields[NutritionFields.timeZone]?.stringValue, TimeZone(identifier: zone) == nil {
                return APIErrorDetail(
                    .validationFailed, "timeZone must be an IANA time zone such as Europe/Paris.",
                    field: NutritionFields.timeZone)
            }
            return nil
        }
    }
}
