import Foundation
import Mustache
import Testing

/// How swift-mustache renders the page models' Swift values (it reflects them with Mirror), the
/// rules the models are written to: stored properties by name, nested structs through dots, an
/// Optional that is nil as absent, arrays as one section per element, Bools as conditions.
@Suite("Mustache renders page models")
struct MustacheModelTests {
    struct Page {
        let title: String
        let count: Int
        let note: String?
        let empty: String
        let flag: Bool
        let limits = Limits()
        let rows: [Row]
        let inner: Inner?
    }

    struct Limits {
        let name = 50
    }

    struct Row {
        let name: String
        let error: String?
    }

    struct Inner {
        let title: String
    }

    static func render(_ template: String, _ page: Page) throws -> String {
        var library = MustacheLibrary()
        try library.register(template, named: "page")
        return try #require(library.render(page, withTemplate: "page"))
    }

    static let page = Page(
        title: "Outer", count: 3, note: nil, empty: "", flag: false,
        rows: [Row(name: "a", error: "bad"), Row(name: "b", error: nil)], inner: Inner(title: "Inner"))

    @Test func propertiesNestedStructsAndNumbersByName() throws {
        #expect(try Self.render("{{title}} {{count}} {{limits.name}} {{inner.title}}", Self.page) == "Outer 3 50 Inner")
        #expect(try Self.render("{{#inner}}{{title}}{{/inner}}", Self.page) == "Inner")
    }

    @Test func aNilOptionalIsAbsentAndAFalseBoolIsFalse() throws {
        #expect(try Self.render("[{{note}}]{{#note}}x{{/note}}{{^note}}none{{/note}}", Self.page) == "[]none")
        #expect(try Self.render("{{#flag}}on{{/flag}}{{^flag}}off{{/flag}}", Self.page) == "off")
    }

    /// Why a model says "nothing" with nil, not "": an empty string is a value, so its section shows.
    @Test func anEmptyStringIsAValue() throws {
        #expect(try Self.render("{{#empty}}shown{{/empty}}{{^empty}}hidden{{/empty}}", Self.page) == "shown")
    }

    @Test func anArrayIsASectionPerElement() throws {
        #expect(try Self.render("{{#rows}}<{{name}}>{{/rows}}", Self.page) == "<a><b>")
    }

    /// A name a row lacks, or holds as nil, is looked up in the enclosing values: a row's optional
    /// must not share a name with the page's (the reminder form's checklist lines say `problem`,
    /// not `error`, for that reason).
    @Test func aNilInARowFallsBackToTheEnclosingValues() throws {
        struct Outer {
            let error = "from the page"
            let rows = [Row(name: "a", error: "its own"), Row(name: "b", error: nil)]
        }
        var library = MustacheLibrary()
        try library.register("{{#rows}}{{name}}: {{error}}; {{/rows}}", named: "rows")
        #expect(library.render(Outer(), withTemplate: "rows") == "a: its own; b: from the page; ")
    }
}
