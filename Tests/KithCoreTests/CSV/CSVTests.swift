import Foundation
import KithCore
import Testing

@Suite("CSV (RFC 4180)")
struct CSVTests {
    @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() throws {
        let text = "a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"two\nlines\"\r\nlast,,\r\n"
        let rows = try CSV.parse(text)
        #expect(rows.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", "two\nlines"], ["last", "", ""]])
        #expect(rows.map(\.line) == [1, 2, 4], "a row's line is where it starts")
    }

    @Test func writingThenReadingGivesTheSameFields() throws {
        let fields = [["Zoë", "O'Brien", "Acme, Inc."], ["=1+1", "\"quoted\"", "multi\r\nline"], ["", "", ""]]
        #expect(try CSV.parse(CSV.write(fields)).map(\.fields) == fields)
        #expect(CSV.write([["plain", "with,comma"]]) == "plain,\"with,comma\"\r\n")
    }

    @Test func lfLineEndsAndAMissingFinalNewlineAreFine() throws {
        #expect(try CSV.parse("a,b\nc,d").map(\.fields) == [["a", "b"], ["c", "d"]])
    }

    @Test func brokenQuotingNamesItsLine() {
        #expect(throws: CSV.ParseError(line: 2, reason: "a quoted field never ends")) {
            try CSV.parse("a\n\"open,b\nc")
        }
        #expect(throws: CSV.ParseError(line: 1, reason: "text after a closing quote")) { try CSV.parse("\"a\"b,c") }
        #expect(throws: CSV.ParseError(line: 3, reason: "a quote inside an unquoted field")) {
            try CSV.parse("a\nb\nc\"d")
        }
    }

    @Test func semicolonsSeparateWhenTheFirstLineHasMoreOfThemThanCommas() throws {
        let french = "Nom;Prix\r\n\"Café; crème\";3,50\r\n"
        #expect(CSV.separator(of: french) == ";")
        #expect(try CSV.parse(french, separator: ";").map(\.fields) == [["Nom", "Prix"], ["Café; crème", "3,50"]])
        #expect(CSV.separator(of: "a,b;c,d\nx;y;z;w") == ",", "only the first line counts")
        #expect(CSV.separator(of: "\"a;b;c\",d") == ",", "separators inside quotes don't count")
        #expect(CSV.separator(of: "") == ",")
    }
}
