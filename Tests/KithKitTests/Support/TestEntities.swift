import Foundation
import KithCore
import KithKit

/// A small entity for store and engine tests: the apps' own entities are tested with the apps.
enum TestEntities {
    static let note = EntityDeclaration(
        name: "test.note", scope: .user,
        fields: [
            FieldDeclaration("title", .string(maxLength: 50)),
            FieldDeclaration("done", .bool, optional: true),
            FieldDeclaration("rank", .integer(0...1000), optional: true),
            FieldDeclaration("weight", .number(0...100), optional: true),
        ])

    /// A record shared in a family's scope, for what happens when the account leaves the family.
    static let sharedNote = EntityDeclaration(
        name: "test.sharedNote", scope: .family, fields: [FieldDeclaration("title", .string(maxLength: 50))])

    static let catalog = EntityCatalog([note, sharedNote])
    static let userID = UUID()
    static var scope: String { "user:\(userID.uuidString.lowercased())" }

    static func memoryStore(now: @escaping @Sendable () -> Date = { Date() }) throws -> LocalStore {
        try LocalStore(url: nil, catalog: catalog, userScope: scope, now: now)
    }
}
