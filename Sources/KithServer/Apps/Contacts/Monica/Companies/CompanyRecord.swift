import Foundation

/// A row of `monica_companies`: a company of the account's, where its contacts' occupations are.
struct CompanyRecord: MonicaRecord {
    static let table = "monica_companies"

    let id: Int64
    let name: String
    let website: String?
    let numberOfEmployees: Int64?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, name, website
        case numberOfEmployees = "number_of_employees", createdAt = "created_at", updatedAt = "updated_at"
    }
}
