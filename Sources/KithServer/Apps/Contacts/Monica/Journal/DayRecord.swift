import Foundation

/// A row of `monica_journal_days`: how one day went (`rate` 1 bad, 2 so-so, 3 great), with an
/// optional comment; one a day per account, Monica's mood rating.
struct DayRecord: MonicaRecord {
    static let table = "monica_journal_days"

    let id: Int64
    let uuid: String
    let date: String
    let rate: Int64
    let comment: String?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, date, rate, comment
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}
