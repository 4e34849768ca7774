import KithCore
import Testing

@Suite("Contact search ranking")
struct NameSearchTests {
    static func ranked(_ query: String, _ names: [String]) -> [String] {
        guard let search = NameSearch(query) else { return [] }
        return names.compactMap { name -> (String, NameSearch.Score)? in
            let candidate = NameSearch.Candidate(searchText: NameSearch.searchText(of: [name]))
            return search.score(candidate).map { (name, $0) }
        }
        .sorted { $0.1 < $1.1 }
        .map(\.0)
    }

    @Test func johnFindsJonAndJonathanAfterTheExactJohn() {
        let found = Self.ranked("John", ["Jonathan Swift", "Mary Poppins", "Jon Snow", "John Doe", "Joan Baez"])
        #expect(found.first == "John Doe")
        #expect(found.contains("Jon Snow"))
        #expect(found.contains("Jonathan Swift"))
        #expect(!found.contains("Mary Poppins"))
    }

    @Test func exactThenPrefixThenSubstringThenFuzzyThenPhonetic() {
        let names = ["Rupert Giles", "Jo Derobertis", "Robret Smith", "Roberta Flack", "Robert Plant", "Ann Other"]
        #expect(
            Self.ranked("robert", names) == [
                "Robert Plant", "Roberta Flack", "Jo Derobertis", "Robret Smith", "Rupert Giles",
            ])
    }

    @Test func caseAndAccentsDoNotMatter() {
        #expect(Self.ranked("jose", ["JOSÉ Álvarez"]) == ["JOSÉ Álvarez"])
        #expect(Self.ranked("ÉLODIE", ["elodie martin"]) == ["elodie martin"])
    }

    @Test func everyTermMustMatchAndTheBestPairComesFirst() {
        let found = Self.ranked("john doe", ["John Smith", "John Doe", "Jane Doe", "Jon Doe", "Mary Doe"])
        // Jane sounds like John (both J500), so she comes, but last.
        #expect(found == ["John Doe", "Jon Doe", "Jane Doe"])
    }

    @Test func shortTermsAreNotFuzzy() {
        // "ro" is one edit from "jo", which would find every Joe and John.
        #expect(Self.ranked("ro", ["John Doe", "Roger Rabbit"]) == ["Roger Rabbit"])
    }

    @Test func emailsAreSearchableWholeAndByPart() {
        #expect(Self.ranked("john@doe.com", ["x john@doe.com"]).count == 1)
        #expect(Self.ranked("doe", ["x john@doe.com"]).count == 1)
    }

    @Test func anEmptyQueryIsNoSearch() {
        #expect(NameSearch("  ,  ") == nil)
    }

    @Test func similarityMeasures() {
        let s = { (text: String) in text }
        #expect(StringSimilarity.jaroWinkler(s("martha"), s("marhta")) > 0.96)
        #expect(StringSimilarity.jaroWinkler(s("abc"), s("xyz")) == 0)
        #expect(StringSimilarity.withinOneEdit(s("john"), s("jon")))
        #expect(StringSimilarity.withinOneEdit(s("jon"), s("joan")))
        #expect(StringSimilarity.withinOneEdit(s("john"), s("joan")))
        #expect(!StringSimilarity.withinOneEdit(s("john"), s("jane")))
        #expect(StringSimilarity.prefixWithinOneEdit(s("john"), of: s("jonathan")))
        #expect(!StringSimilarity.prefixWithinOneEdit(s("john"), of: s("mary")))
        #expect(StringSimilarity.soundex(s("robert")) == "R163")
        #expect(StringSimilarity.soundex(s("rupert")) == "R163")
        #expect(StringSimilarity.soundex(s("ashcraft")) == "A261")
        #expect(StringSimilarity.soundex(s("tymczak")) == "T522")
        #expect(StringSimilarity.soundex(s("123")) == nil)
    }
}
