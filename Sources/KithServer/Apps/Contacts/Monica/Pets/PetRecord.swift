import Foundation

/// A row of `monica_pets`: a contact's pet, of one of `PetCategories`, maybe with a name.
struct PetRecord: MonicaRecord {
    static let table = "monica_pets"

    let id: Int64
    let uuid: String
    let contactID: Int64
    let petCategoryID: Int64
    let name: String?
    let createdAt: Int64?
    let updatedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, uuid, name
        case contactID = "contact_id", petCategoryID = "pet_category_id"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

extension PetRecord: NamesContacts {
    var namedContacts: [Int64] { [contactID] }
}
