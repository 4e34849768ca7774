/// Monica's default life event categories and their types, by key, with their English names:
/// what every account starts with (`PopulateLifeEventsTable`).
enum LifeEventDefaults {
    static let all: [(key: String, name: String, types: [(key: String, name: String)])] = [
        (
            "work_education", "Work & education",
            [
                ("new_job", "New job"), ("retirement", "Retirement"), ("new_school", "New school"),
                ("study_abroad", "Study abroad"), ("volunteer_work", "Volunteer work"),
                ("published_book_or_paper", "Published a book or paper"), ("military_service", "Military service"),
            ]
        ),
        (
            "family_relationships", "Family & relationships",
            [
                ("new_relationship", "New relationship"), ("engagement", "Engagement"), ("marriage", "Marriage"),
                ("anniversary", "Anniversary"), ("expecting_a_baby", "Expecting a baby"), ("new_child", "New child"),
                ("new_family_member", "New family member"), ("new_pet", "New pet"),
                ("end_of_relationship", "End of relationship"), ("loss_of_a_loved_one", "Loss of a loved one"),
            ]
        ),
        (
            "home_living", "Home & living",
            [
                ("moved", "Moved"), ("bought_a_home", "Bought a home"), ("home_improvement", "Home improvement"),
                ("holidays", "Holidays"), ("new_vehicule", "New vehicle"), ("new_roommate", "New roommate"),
            ]
        ),
        (
            "health_wellness", "Health & wellness",
            [
                ("overcame_an_illness", "Overcame an illness"), ("quit_a_habit", "Quit a habit"),
                ("new_eating_habits", "New eating habits"), ("weight_loss", "Weight loss"),
                ("wear_glass_or_contact", "Started wearing glasses or contacts"), ("broken_bone", "Broke a bone"),
                ("removed_braces", "Had braces removed"), ("surgery", "Had surgery"),
                ("dentist", "Had dental treatment"),
            ]
        ),
        (
            "travel_experiences", "Travel & experiences",
            [
                ("new_sport", "Started playing a new sport"), ("new_hobby", "Took up a new hobby"),
                ("new_instrument", "Started learning a new instrument"),
                ("new_language", "Started learning a new language"), ("tattoo_or_piercing", "Tattoo or piercing"),
                ("new_license", "New license"), ("travel", "Travel"), ("achievement_or_award", "Achievement or award"),
                ("changed_beliefs", "Changed beliefs"), ("first_word", "First word"), ("first_kiss", "First kiss"),
            ]
        ),
    ]

    /// Gives the account Monica's categories and types; Monica copies them without times.
    static func seed(_ storage: MonicaStorage) async throws {
        for category in all {
            let saved = try await storage.table(LifeEventCategoryRecord.self).insert(
                [
                    "name": .text(category.name), "default_life_event_category_key": .text(category.key),
                    "core_monica_data": .bool(true),
                ], now: nil)
            for type in category.types {
                try await storage.table(LifeEventTypeRecord.self).insert(
                    [
                        "life_event_category_id": .int(saved.id), "name": .text(type.name),
                        "default_life_event_type_key": .text(type.key), "core_monica_data": .bool(true),
                    ], now: nil)
            }
        }
    }
}
