import Foundation

/// A row of `monica_tags`; its links to contacts are in `monica_contact_tags`.
struct TagRecord: MonicaRecord {
    static let table = "monica_tags"

    let id: Int64
    let name: String
    let nameSlug: String
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name
        case nameSlug = "name_slug", createdAt = "created_at", updatedAt = "updated_at"
    }
}
