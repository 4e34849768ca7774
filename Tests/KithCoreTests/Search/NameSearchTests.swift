import KithCore
import Testing

@Suite("Contact search ranking")
struct NameSearchTests {
    static func ranked(_ query: String, _ names: [String]) -> [String] {
        guard let search = NameSearch(query) else { return [] }
        return names.compactMap { name -> (String, NameSearch.Score)? in
            search.score(searchText: NameSearch.searchText(of: [name])).map { (name, $0) }
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

extension NameSearchTests {
    /// The search rules a word out by the bytes it shares with the term before measuring it. Over
    /// many generated pairs, what it calls a typo must be exactly what the measures themselves say.
    @Test func skippingHopelessWordsChangesNoAnswer() {
        var generator = SplitMix(seed: 18)
        let alphabet = Array("aeiouybcdhjlmnrst".utf8)
        func word(_ length: Int) -> String {
            String(decoding: (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self)
        }
        var typos = 0
        for _ in 0..<20_000 {
            let term = word(3 + Int(generator.next() % 6))
            // Half the words are the term with a change or two, so typos are common.
            var other = Array(term.utf8)
            if generator.next() % 2 == 0 {
                other = Array(word(1 + Int(generator.next() % 10)).utf8)
            } else {
                for _ in 0...(generator.next() % 2) {
                    let at = Int(generator.next() % UInt64(other.count))
                    switch generator.next() % 3 {
                    case 0: other[at] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    case 1: other.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: at)
                    default: if other.count > 1 { other.remove(at: at) }
                    }
                }
            }
            let candidate = String(decoding: other, as: UTF8.self)
            guard !candidate.hasPrefix(term), !candidate.contains(term) else { continue }
            let expected =
                StringSimilarity.withinOneEdit(term, candidate)
                || (term.utf8.count >= 4 && StringSimilarity.prefixWithinOneEdit(term, of: candidate))
                || (2 * min(term.utf8.count, candidate.utf8.count) >= max(term.utf8.count, candidate.utf8.count)
                    && StringSimilarity.jaroWinkler(term, candidate) >= 0.9)
            let score = NameSearch(term)?.score(searchText: candidate)
            let isFuzzy = score?.worst == .fuzzy
            #expect(isFuzzy == expected, "\(term) ~ \(candidate)")
            if expected { typos += 1 }
        }
        #expect(typos > 1_000, "the generated pairs hold typos to check")
    }
}

/// A small seeded generator, so a failure names pairs that come back on the next run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
