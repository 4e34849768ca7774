import Foundation

/// A family reminder's checklist as a task's DESCRIPTION, one item a line: "[ ] milk", "[x] bread".
/// Reading takes that, Markdown's "- [ ] x" / "- [x] x", "☐ x", "☑ x" / "✓ x" / "✔ x", and any
/// other line as an unticked item (a person typed a new line on the phone).
public enum ChecklistText {
    public struct Item: Sendable, Equatable {
        public var text: String
        public var done: Bool

        public init(_ text: String, done: Bool = false) {
            self.text = text
            self.done = done
        }
    }

    /// One line per item; a line break inside an item's text becomes a space.
    public static func write(_ items: [Item]) -> String {
        items.map { item in
            let text = item.text.split(whereSeparator: \.isNewline).joined(separator: " ")
            return (item.done ? "[x] " : "[ ] ") + text.trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    public static func parse(_ description: String) -> [Item] {
        description.split(whereSeparator: \.isNewline).compactMap { line in
            var text = line.trimmingCharacters(in: .whitespaces)
            var done = false
            for (prefix, ticked) in prefixes where text.hasPrefix(prefix) {
                text = String(text.dropFirst(prefix.count)).trimmingCharacters(in: .whitespaces)
                done = ticked
                break
            }
            return text.isEmpty ? nil : Item(text, done: done)
        }
    }

    /// Longest first, so "- [x]" is not read as "-" then "[x]".
    private static let prefixes: [(String, Bool)] = [
        ("- [ ]", false), ("- [x]", true), ("- [X]", true), ("* [ ]", false), ("* [x]", true), ("* [X]", true),
        ("[ ]", false), ("[x]", true), ("[X]", true), ("☐", false), ("☑", true), ("☒", true), ("✓", true), ("✔", true),
    ]
}
