import Foundation

/// A row of `monica_genders`.
struct GenderRecord: MonicaRecord {
    static let table = "monica_genders"

    let id: Int64
    let name: String
    let type: String?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, type
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}
