import Foundation

/// A row of `monica_debts`: money between the user and a contact. Who owes whom is `in_debt`
/// ("yes": the user owes the contact; "no": the contact owes the user), never the amount's sign.
struct DebtRecord: MonicaRecord {
    static let table = "monica_debts"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let inDebt: String
    let status: String
    let amount: Double
    let reason: String?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, status, amount, reason
        case contactID = "contact_id", inDebt = "in_debt", createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension DebtRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
