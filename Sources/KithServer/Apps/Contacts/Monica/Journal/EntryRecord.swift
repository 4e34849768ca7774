import Foundation

/// A row of `monica_journal_entries`: a journal post of the account, about one day (`Y-m-d`).
struct EntryRecord: MonicaRecord {
    static let table = "monica_journal_entries"

    let id: Int64
    let uuid: String
    let title: String
    let post: String
    let date: String
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, title, post, date
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}
