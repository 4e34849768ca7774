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

    static let catalog = EntityCatalog([note])
    static let userID = UUID()
    static var scope: String { "user:\(userID.uuidString.lowercased())" }

    static func memoryStore(now: @escaping @Sendable () -> Date = { Date() }) throws -> LocalStore {
        try LocalStore(url: nil, catalog: catalog, userScope: scope, now: now)
    }
}
