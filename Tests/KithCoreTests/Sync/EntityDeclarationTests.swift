import Foundation
import KithCore
import Testing

@Suite("Entity declarations")
struct EntityDeclarationTests {
    let note = EntityDeclaration(
        name: "test.note", scope: .user,
        fields: [
            FieldDeclaration("title", .string(maxLength: 50)),
            FieldDeclaration("comment", .string(maxLength: 500, allowEmpty: true), optional: true),
            FieldDeclaration("calories", .integer(0...50_000), optional: true),
            FieldDeclaration("done", .bool, optional: true),
            FieldDeclaration("doneAt", .timestamp, optional: true),
            FieldDeclaration("listId", .uuid, optional: true),
        ])

    @Test func aValidCreationPasses() {
        let values: [String: JSONTree] = [
            "title": .string("Ada"), "calories": .double(120), "done": .bool(true),
            "doneAt": .string("2026-11-21T10:00:00.000Z"), "listId": .string(UUID().uuidString), "comment": .null,
        ]
        #expect(note.problems(in: values, isCreation: true).isEmpty)
    }

    @Test func requiredFieldsAreRequiredOnlyOnCreation() {
        #expect(note.problems(in: ["done": .bool(true)], isCreation: true).map(\.field) == ["title"])
        #expect(note.problems(in: ["done": .bool(true)], isCreation: false).isEmpty)
        #expect(note.problems(in: ["title": .null], isCreation: false).map(\.field) == ["title"])
        #expect(note.problems(in: ["title": .string("   ")], isCreation: false).map(\.field) == ["title"])
    }

    @Test func eachProblemNamesItsField() {
        let values: [String: JSONTree] = [
            "title": .string(String(repeating: "x", count: 51)), "calories": .double(1.5), "done": .string("yes"),
            "doneAt": .string("tomorrow"), "listId": .string("nope"), "unknown": .bool(true),
        ]
        let fields = Set(note.problems(in: values, isCreation: false).compactMap(\.field))
        #expect(fields == ["title", "calories", "done", "doneAt", "listId", "unknown"])
        #expect(note.problems(in: ["calories": .double(50_001)], isCreation: false).first?.message.contains("50000") == true)
        #expect(note.problems(in: ["title": .string("nul\u{0}")], isCreation: false).count == 1)
    }

    @Test func aCatalogFindsDeclarationsByName() {
        let catalog = EntityCatalog([note])
        #expect(catalog["test.note"] == note)
        #expect(catalog["test.other"] == nil)
    }
}
