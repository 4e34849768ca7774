import KithCore

/// Monica's default activity type categories and types, by translation key, with their English names.
enum ActivityTypeDefaults {
    /// Category key and name, then its types: key, name.
    static let all: [(key: String, name: String, types: [(key: String, name: String)])] = [
        (
            "simple_activities", "Simple activities",
            [
                ("just_hung_out", "just hung out"), ("watched_movie_at_home", "watched a movie at home"),
                ("talked_at_home", "just talked at home"),
            ]
        ),
        ("sport", "Sport", [("did_sport_activities_together", "did sport together")]),
        (
            "food", "Food",
            [
                ("ate_at_his_place", "ate at their place"), ("went_bar", "went to a bar"), ("ate_at_home", "ate at home"),
                ("picknicked", "picknicked"), ("ate_restaurant", "ate at a restaurant"),
            ]
        ),
        (
            "cultural_activities", "Cultural activities",
            [
                ("went_theater", "went to the theater"), ("went_concert", "went to a concert"),
                ("went_play", "went to a play"), ("went_museum", "went to the museum"),
            ]
        ),
    ]

    /// A type's or category's name: its own, else the English text of its translation key.
    static func name(_ name: String?, key: String?) -> JSONTree {
        if let name { return .string(name) }
        guard let key else { return .null }
        for category in all {
            if category.key == key { return .string(category.name) }
            if let type = category.types.first(where: { $0.key == key }) { return .string(type.name) }
        }
        return .string(key)
    }
}
