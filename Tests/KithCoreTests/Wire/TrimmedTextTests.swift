import Foundation
import KithCore
import Testing

/// `trimmedWhitespace` must trim exactly what Foundation's `.whitespacesAndNewlines` trims: every
/// rule that says "required" or counts characters depends on it, on the server and on devices.
@Suite("Trimming white space")
struct TrimmedTextTests {
    /// Every scalar Foundation counts as white space or a line break, and neighbours that it doesn't.
    static let spaces: [Unicode.Scalar] = (0...0x3000).compactMap(Unicode.Scalar.init).filter {
        CharacterSet.whitespacesAndNewlines.contains($0)
    }
    static let others: [Unicode.Scalar] = ["a", "Z", "0", ".", "\u{0}", "\u{1F}", "\u{7F}", "\u{200C}", "\u{FEFF}",
        "\u{301}", "é", "\u{1F600}", "\u{180E}"]

    @Test func theSameSetAsFoundations() {
        #expect(Self.spaces.count >= 26, "Foundation's set: \(Self.spaces.count) scalars")
        #expect(Self.spaces.contains("\u{200B}"), "Foundation trims the zero-width space too")
        for scalar in Self.spaces {
            #expect(" \(scalar)x\(scalar) ".trimmedWhitespace == "x", "U+\(String(scalar.value, radix: 16))")
        }
        for scalar in Self.others {
            let text = "\(scalar)"
            #expect(text.trimmedWhitespace == text, "U+\(String(scalar.value, radix: 16)) is kept")
        }
    }

    @Test func randomTextsTrimAsFoundationTrimsThem() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Self.spaces + Self.others
        for _ in 0..<2_000 {
            let length = Int.random(in: 0...8, using: &generator)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(alphabet.randomElement(using: &generator)!) }
            let string = String(text)
            #expect(string.trimmedWhitespace == string.trimmingCharacters(in: .whitespacesAndNewlines), "\(Array(string.unicodeScalars))")
        }
    }

    @Test func plainCases() {
        #expect("".trimmedWhitespace == "")
        #expect(" \t\n\r ".trimmedWhitespace == "")
        #expect("  Ada Lovelace \n".trimmedWhitespace == "Ada Lovelace")
        #expect("Ada".trimmedWhitespace == "Ada")
        #expect("\u{00A0}Zoë\u{3000}".trimmedWhitespace == "Zoë")
    }
}
