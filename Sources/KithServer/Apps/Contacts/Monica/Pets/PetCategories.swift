/// A kind of pet, as Monica names it (`small_animal`: the apps translate the name).
struct PetCategory: Sendable {
    let id: Int64
    let name: String
    /// The kinds Monica's apps offer first.
    let isCommon: Bool
}

/// Monica's pet categories. Its migration wrote them once, with the same ids on every install, and
/// no route changes them, so clients send the ids they know: kept here, not in a table.
enum PetCategories {
    static let all = [
        PetCategory(id: 1, name: "reptile", isCommon: false), PetCategory(id: 2, name: "bird", isCommon: false),
        PetCategory(id: 3, name: "cat", isCommon: true), PetCategory(id: 4, name: "dog", isCommon: true),
        PetCategory(id: 5, name: "fish", isCommon: true), PetCategory(id: 6, name: "hamster", isCommon: false),
        PetCategory(id: 7, name: "horse", isCommon: false), PetCategory(id: 8, name: "rabbit", isCommon: false),
        PetCategory(id: 9, name: "rat", isCommon: false), PetCategory(id: 10, name: "small_animal", isCommon: false),
        PetCategory(id: 11, name: "other", isCommon: false),
    ]

    static func named(id: Int64) -> PetCategory? { all.first { $0.id == id } }
}
