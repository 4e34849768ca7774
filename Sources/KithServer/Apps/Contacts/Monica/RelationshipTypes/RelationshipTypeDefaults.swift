import Foundation

/// Monica's default relationship types: group, then name and the name of the reverse type.
enum RelationshipTypeDefaults {
    static let groupNames = ["love", "family", "friend", "work"]

    static let types: [(group: String, name: String, reverse: String)] = [
        ("love", "partner", "partner"), ("love", "spouse", "spouse"), ("love", "date", "date"),
        ("love", "lover", "lover"),
        ("love", "inlovewith", "lovedby"), ("love", "lovedby", "inlovewith"), ("love", "ex", "ex"),
        ("family", "parent", "child"), ("family", "child", "parent"), ("family", "sibling", "sibling"),
        ("family", "grandparent", "grandchild"), ("family", "grandchild", "grandparent"), ("family", "uncle", "nephew"),
        ("family", "nephew", "uncle"), ("family", "cousin", "cousin"), ("family", "godfather", "godson"),
        ("family", "godson", "godfather"), ("friend", "friend", "friend"), ("friend", "bestfriend", "bestfriend"),
        ("work", "colleague", "colleague"), ("work", "boss", "subordinate"), ("work", "subordinate", "boss"),
        ("work", "mentor", "protege"), ("work", "protege", "mentor"), ("family", "stepparent", "stepchild"),
        ("family", "stepchild", "stepparent"), ("love", "ex_husband", "ex_husband"),
    ]
}
