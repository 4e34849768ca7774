import Foundation

/// How well a search term matches a word, best first.
public enum SearchRank: Int, Comparable, Sendable {
    case exact, prefix, substring, fuzzy, phonetic

    public static func < (lhs: SearchRank, rhs: SearchRank) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Contact search as people expect it ("John" finds Jon and Jonathan): a term matches a word
/// exactly, as its beginning, inside it (Monica's own search is a substring match, so nothing it
/// finds is lost), within a typo (Jaro-Winkler >= 0.9, or one edit of the word or of its
/// beginning; terms of three letters or more), or by sound (Soundex). Every term of the query must
/// match some word; a contact ranks by its worst term, then by the sum of its terms. Used by the
/// server's `/api` search and by KithKit's offline search, so both order results alike.
public struct NameSearch: Sendable {
    struct Term: Sendable {
        let bytes: [UInt8]
        let soundex: UInt32?
    }

    let terms: [Term]

    /// Nil when the query has no word to search for.
    public init?(_ query: String) {
        let terms = Self.words(in: query).map { word -> Term in
            let bytes = Array(word.utf8)
            return Term(bytes: bytes, soundex: bytes.withUnsafeBufferPointer(StringSimilarity.soundexCode))
        }
        guard !terms.isEmpty else { return nil }
        self.terms = terms
    }

    /// The searchable words of some text: folded (case and accents), split at spaces and at
    /// punctuation, with each whole token kept too ("john@doe.com" gives itself, "john", "doe", "com").
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        for token in fold(text).split(whereSeparator: \.isWhitespace) {
            let token = String(token)
            let parts = token.split { !$0.isLetter && !$0.isNumber }.map(String.init)
            if parts.count != 1 || parts.first != token, token.contains(where: { $0.isLetter || $0.isNumber }) {
                words.append(token)
            }
            words.append(contentsOf: parts)
        }
        return words
    }

    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The text a candidate is stored with: its words, space separated, folded once at write time.
    public static func searchText(of fields: [String?]) -> String {
        fields.compactMap { $0 }.flatMap(words(in:)).joined(separator: " ")
    }

    /// The candidates (contacts) a search scores, read once from their stored search texts. Each
    /// distinct word is kept once (its bytes, which bytes it holds, its Soundex), and a candidate is
    /// the list of its words' numbers: a search ranks every distinct word once per term (a first
    /// name shared by a thousand contacts is measured once, not a thousand times), then a candidate
    /// by looking its words' ranks up. Everything lives in a few flat arrays, so scoring 100,000
    /// candidates touches no small arrays (each access of which retained and released it: 40% of a
    /// search).
    public struct Candidates: Sendable {
        struct Word: Sendable {
            let start: Int32
            let end: Int32
            /// Bit `byte & 63` for each byte of the word: a superset of its bytes, so a term byte
            /// whose bit is clear is surely not in the word.
            let bytes: UInt64
            /// `StringSimilarity.soundexCode`, 0 when the word has no letter.
            let soundex: UInt32
        }

        /// The distinct words' bytes, one after the other.
        private var text: [UInt8] = []
        private var words: [Word] = []
        /// Candidate `i`'s words are `wordsOfCandidates[firstWord[i]..<firstWord[i + 1]]`.
        private var wordsOfCandidates: [Int32] = []
        private var firstWord: [Int32] = [0]

        public init<Texts: Sequence>(searchTexts: Texts) where Texts.Element == String {
            var known: [[UInt8]: Int32] = [:]
            for searchText in searchTexts {
                for word in searchText.utf8.split(separator: 32) {
                    let bytes = Array(word)
                    if let number = known[bytes] {
                        wordsOfCandidates.append(number)
                        continue
                    }
                    let number = Int32(words.count)
                    known[bytes] = number
                    let start = text.count
                    text.append(contentsOf: bytes)
                    bytes.withUnsafeBufferPointer { word in
                        words.append(
                            Word(
                                start: Int32(start), end: Int32(text.count), bytes: NameSearch.byteSet(word),
                                soundex: StringSimilarity.soundexCode(word) ?? 0))
                    }
                    wordsOfCandidates.append(number)
                }
                firstWord.append(Int32(wordsOfCandidates.count))
            }
        }

        public var count: Int { firstWord.count - 1 }

        /// Each candidate that matches `search`, by its place in this set, with its score.
        public func matches(_ search: NameSearch) -> [(index: Int, score: Score)] {
            // Per term, every distinct word's rank (0: no match, else the rank's raw value + 1).
            let ranks: [[UInt8]] = text.withUnsafeBufferPointer { text in
                search.terms.map { term in
                    term.bytes.withUnsafeBufferPointer { termBytes in
                        words.map { word in
                            let bytes = StringSimilarity.Bytes(rebasing: text[Int(word.start)..<Int(word.end)])
                            return NameSearch.rank(termBytes, term.soundex, bytes, word).map { UInt8($0.rawValue + 1) } ?? 0
                        }
                    }
                }
            }
            var found: [(index: Int, score: Score)] = []
            wordsOfCandidates.withUnsafeBufferPointer { wordsOfCandidates in
                firstWord.withUnsafeBufferPointer { firstWord in
                    candidates: for candidate in 0..<(firstWord.count - 1) {
                        let own = wordsOfCandidates[Int(firstWord[candidate])..<Int(firstWord[candidate + 1])]
                        var worst = 0
                        var total = 0
                        for termRanks in ranks {
                            var best = UInt8.max
                            for word in own {
                                let rank = termRanks[Int(word)]
                                if rank != 0, rank < best { best = rank }
                            }
                            guard best != .max else { continue candidates }
                            worst = max(worst, Int(best) - 1)
                            total += Int(best) - 1
                        }
                        if let worst = SearchRank(rawValue: worst) { found.append((candidate, Score(worst: worst, total: total))) }
                    }
                }
            }
            return found
        }
    }

    static func byteSet(_ word: StringSimilarity.Bytes) -> UInt64 {
        word.reduce(0) { $0 | 1 << ($1 & 63) }
    }

    public struct Score: Comparable, Sendable {
        public let worst: SearchRank
        public let total: Int

        public static func < (lhs: Score, rhs: Score) -> Bool {
            (lhs.worst, lhs.total) < (rhs.worst, rhs.total)
        }
    }

    /// How one stored search text matches; nil when some term matches none of its words. For
    /// many candidates, `Candidates.matches` reads them once.
    public func score(searchText: String) -> Score? {
        Candidates(searchTexts: [searchText]).matches(self).first?.score
    }

    /// How `term` matches one word: exactly, as its beginning, inside it, within a typo or by
    /// sound (terms of three letters or more); nil when not at all.
    static func rank(
        _ term: StringSimilarity.Bytes, _ termSoundex: UInt32?, _ word: StringSimilarity.Bytes, _ stored: Candidates.Word
    ) -> SearchRank? {
        if word.count >= term.count, startsWith(word, term) { return word.count == term.count ? .exact : .prefix }
        if contains(word, term) { return .substring }
        // Short terms would be one edit from half the address book.
        guard term.count >= 3 else { return nil }
        if isFuzzy(term, word, shared: sharedBytes(term, stored.bytes)) { return .fuzzy }
        if let termSoundex, termSoundex == stored.soundex { return .phonetic }
        return nil
    }

    /// Within one edit of the word or of its beginning, or Jaro-Winkler >= 0.9. `shared` (how many
    /// of the term's bytes occur in the word at all) rules most words out before any measure runs:
    /// one edit leaves at most one term byte unshared, and Jaro-Winkler can reach 0.9 only if
    /// Jaro reaches 5/6 (the prefix bonus adds at most 0.4 of what is left), which needs
    /// (m/|term| + m/|word| + 1) / 3 >= 5/6 with m matches, and m <= shared.
    private static func isFuzzy(_ term: StringSimilarity.Bytes, _ word: StringSimilarity.Bytes, shared: Int) -> Bool {
        if shared >= term.count - 1 {
            if StringSimilarity.withinOneEdit(term, word) { return true }
            if term.count >= 4, StringSimilarity.prefixWithinOneEdit(term, of: word) { return true }
        }
        guard 2 * min(term.count, word.count) >= max(term.count, word.count) else { return false }
        let m = Double(shared)
        guard (m / Double(term.count) + m / Double(word.count) + 1) / 3 >= 5.0 / 6.0 - 1e-9 else { return false }
        return StringSimilarity.jaroWinkler(term, word) >= 0.9
    }

    /// How many of the term's bytes (counted with repeats) have their bit in the word's byte set.
    private static func sharedBytes(_ term: StringSimilarity.Bytes, _ wordBytes: UInt64) -> Int {
        var shared = 0
        for byte in term where wordBytes & (1 << (byte & 63)) != 0 { shared += 1 }
        return shared
    }

    private static func startsWith(_ word: StringSimilarity.Bytes, _ prefix: StringSimilarity.Bytes) -> Bool {
        for index in 0..<prefix.count where word[index] != prefix[index] { return false }
        return true
    }

    private static func contains(_ word: StringSimilarity.Bytes, _ part: StringSimilarity.Bytes) -> Bool {
        guard part.count <= word.count, let first = part.first else { return part.isEmpty }
        var start = 0
        while start + part.count <= word.count {
            if word[start] == first, startsWith(StringSimilarity.Bytes(rebasing: word[start...]), part) { return true }
            start += 1
        }
        return false
    }
}
