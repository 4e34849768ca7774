import Foundation

/// A row of `monica_activity_types`. Monica's default ones carry a translation key and no name.
struct ActivityTypeRecord: MonicaRecord {
    static let table = "monica_activity_types"

    let id: Int64
    let activityTypeCategoryID: Int64
    let name: String?
    let translationKey: String?
    let locationType: String?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name
        case activityTypeCategoryID = "activity_type_category_id", translationKey = "translation_key"
        case locationType = "location_type", createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// A row of `monica_activity_type_categories`.
struct ActivityTypeCategoryRecord: MonicaRecord {
    static let table = "monica_activity_type_categories"

    let id: Int64
    let name: String?
    let translationKey: String?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name
        case translationKey = "translation_key", createdAt = "created_at", updatedAt = "updated_at"
    }
}
