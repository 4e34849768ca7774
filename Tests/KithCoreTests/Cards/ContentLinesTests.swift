import Foundation
import KithCore
import Testing

@Suite("Content lines (RFC 6350 §3.3, RFC 5545 §3.1)")
struct ContentLinesTests {
    @Test func readsGroupsParametersAndRawValues() throws {
        let lines = try ContentLines.parse(
            "item1.tel;type=HOME,work;TYPE=pref:+1 555\r\nNOTE;LANGUAGE=en:a\\, b\\nc\r\nX-A;X-P=\"a:b;c,d\",e:v\r\n")
        #expect(lines.count == 3)
        #expect(lines[0].group == "item1" && lines[0].name == "TEL")
        #expect(lines[0].parameter("Type") == ["HOME", "work", "pref"])
        #expect(lines[1].value == "a\\, b\\nc", "the value stays as on the wire")
        #expect(ContentLines.unescapeText(lines[1].value) == "a, b\nc")
        #expect(lines[2].parameters == [ContentLine.Parameter(name: "X-P", values: ["a:b;c,d", "e"])])
    }

    @Test func unfoldsCRLFAndLFWithSpaceOrTabAndSkipsBOMAndBlankLines() throws {
        let text = "\u{FEFF}BEGIN:VCARD\nNOTE:one\n  two\r\n\tthree\n\nEND:VCARD"
        let lines = try ContentLines.parse(text)
        #expect(lines.map(\.name) == ["BEGIN", "NOTE", "END"])
        #expect(lines[1].value == "one twothree")
    }

    @Test func vCard21BareParametersAreTypes() throws {
        let line = try #require(try ContentLines.parse("TEL;CELL;VOICE:+1 555\nNOTE;QUOTED-PRINTABLE:=41").first)
        #expect(line.parameter("TYPE") == ["CELL", "VOICE"])
        #expect(try ContentLines.parse("NOTE;QUOTED-PRINTABLE:=41")[0].parameter("ENCODING") == ["QUOTED-PRINTABLE"])
    }

    @Test func rfc6868CaretsInParameterValues() throws {
        let line = try #require(try ContentLines.parse("X-A;X-LABEL=\"say ^'hi^'^nnow ^^ ok\":v").first)
        #expect(line.parameter("X-LABEL") == ["say \"hi\"\nnow ^ ok"])
        #expect(try ContentLines.parse(ContentLines.write([line])) == [line])
    }

    @Test func writesFoldedAt75OctetsWithoutSplittingUTF8() throws {
        let note = String(repeating: "Zoë 👩‍👩‍👧 ", count: 40)
        let line = ContentLine(name: "NOTE", value: ContentLines.escapeText(note))
        let text = ContentLines.write([line])
        for physical in text.components(separatedBy: "\r\n").dropLast() {
            #expect(physical.utf8.count <= 75)
            #expect(String(validating: Array(physical.utf8), as: UTF8.self) != nil, "a fold never splits a character")
        }
        #expect(text.hasSuffix("\r\n"))
        #expect(try ContentLines.parse(text) == [line])
        #expect(ContentLines.unescapeText(try ContentLines.parse(text)[0].value) == note)
    }

    @Test func quotesParameterValuesThatNeedIt() {
        let line = ContentLine(
            name: "ADR", parameters: [ContentLine.Parameter(name: "GEO", values: ["geo:52.5,13.4"])], value: ";;x;;;;")
        #expect(ContentLines.write([line]) == "ADR;GEO=\"geo:52.5,13.4\":;;x;;;;\r\n")
    }

    @Test func textEscapesGoBothWays() {
        let text = "a\\b, c; d\ne"
        #expect(ContentLines.escapeText(text) == "a\\\\b\\, c\\; d\\ne")
        #expect(ContentLines.unescapeText(ContentLines.escapeText(text)) == text)
        #expect(ContentLines.unescapeText("x\\Ny\\:z\\") == "x\ny:z\\", "\\N, an unknown escape, a trailing backslash")
        #expect(ContentLines.escapeText("a\r\nb\rc") == "a\\nb\\nc")
    }

    @Test func splitsComponentsOnUnescapedSeparatorsOnly() {
        #expect(ContentLines.splitComponents("Doe;John\\, Jr.;;;", separator: ";") == ["Doe", "John, Jr.", "", "", ""])
        #expect(ContentLines.splitComponents("a\\,b,c\\\\,d", separator: ",") == ["a,b", "c\\", "d"])
        #expect(ContentLines.splitComponents("", separator: ",") == [""])
    }

    // MARK: - Bad input: a sentence, a line, and quickly

    @Test func aLineWithoutAColonNamesItsLine() {
        let error = #expect(throws: CardFormatError.self) {
            try ContentLines.parse("BEGIN:VCARD\nVERSION:3.0\nFN:x\nnot a line\n")
        }
        #expect(error?.line == 4)
        #expect(error?.message.hasPrefix("Line 4 has no colon") == true)
    }

    @Test func anUnclosedQuoteOrBadNameIsRefused() {
        #expect(throws: CardFormatError.self) { try ContentLines.parse("X-A;P=\"open:v") }
        #expect(throws: CardFormatError.self) { try ContentLines.parse("FN x:v") }
        #expect(throws: CardFormatError.self) { try ContentLines.parse(":v") }
    }

    @Test func aLineOver64KiBIsRefused() {
        let text = "BEGIN:VCARD\nVERSION:3.0\nNOTE:" + String(repeating: "a", count: 70_000) + "\nEND:VCARD\n"
        let started = Date()
        let error = #expect(throws: CardFormatError.self) { try ContentLines.parse(text) }
        #expect(error?.line == 3)
        #expect(error?.message.contains("64 KiB") == true)
        // Folded: the limit is on the unfolded line.
        let folded = "NOTE:" + String(repeating: "aaa\n ", count: 30_000)
        #expect(throws: CardFormatError.self) { try ContentLines.parse(folded) }
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func moreThan10000LinesAreRefused() {
        let text = "BEGIN:VCARD\n" + String(repeating: "NOTE:x\n", count: 20_000) + "END:VCARD\n"
        let started = Date()
        let error = #expect(throws: CardFormatError.self) { try ContactCard.parse(text) }
        #expect(error?.line == 10_001, "the first line past the limit")
        #expect(error?.message.contains("more than 10,000 lines") == true)
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func moreThan100ParametersAreRefused() {
        let text = "X-A" + String(repeating: ";P=1", count: 101) + ":v"
        #expect(
            throws: CardFormatError(
                line: 1, message: "Line 1 has more than 100 parameters; Kith reads at most 100 on one line.")
        ) {
            try ContentLines.parse(text)
        }
    }

    @Test func hostileBodiesFailFast() {
        // Many parameter values, many folds, a huge quoted value: linear work, then a clean refusal.
        let manyValues = "X-A;P=" + String(repeating: "a,", count: 30_000) + ":v"
        let manyFolds = "NOTE:" + String(repeating: "\n x", count: 60_000)
        let started = Date()
        #expect((try? ContentLines.parse(manyValues)) != nil)
        #expect(throws: CardFormatError.self) {
            try ContentLines.parse(manyFolds + "\n" + String(repeating: "Y:\n", count: 10_001))
        }
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func limitsAreSaidInOnePlace() {
        #expect(CardLimits.maxLines == 10_000)
        #expect(CardLimits.maxLineBytes == 65_536)
        #expect(CardLimits.maxParameters == 100)
        #expect(CardLimits.maxNesting == 10)
    }
}
