import Foundation

/// A row of `monica_occupations`: a contact's job at one of the account's companies.
struct OccupationRecord: MonicaRecord {
    static let table = "monica_occupations"

    let id: Int64
    let contactID: Int64
    let companyID: Int64
    let title: String
    let description: String?
    let salary: Int64?
    /// year, month, week, day or hour.
    let salaryUnit: String?
    @StoredFlag var currentlyWorksHere: Bool
    /// Days as `Y-m-d`.
    let startDate: String?
    let endDate: String?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, title, description, salary
        case contactID = "contact_id", companyID = "company_id", salaryUnit = "salary_unit"
        case currentlyWorksHere = "currently_works_here", startDate = "start_date", endDate = "end_date"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension OccupationRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
