import Foundation

/// A row of `monica_activities`; its attendees are in `monica_activity_contacts`.
struct ActivityRecord: MonicaRecord {
    static let table = "monica_activities"

    let id: Int64
    let uuid: String
    let activityTypeID: Int64?
    let summary: String
    let description: String?
    let happenedAt: String
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, summary, description
        case activityTypeID = "activity_type_id", happenedAt = "happened_at", createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}
