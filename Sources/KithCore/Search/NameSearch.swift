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

    /// The candidates (contacts) a search scores, read once from their stored search texts: every
    /// text's bytes in one array and every word (where it is, which bytes it holds, its Soundex)
    /// in another, so scoring 100,000 of them walks two buffers instead of touching 200,000 small
    /// arrays (each access of which retained and released it: 40% of a search, issue 18), and the
    /// costly measures are skipped where they cannot match.
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

        private var text: [UInt8] = []
        private var words: [Word] = []
        /// Candidate `i`'s words are `words[firstWord[i]..<firstWord[i + 1]]`.
        private var firstWord: [Int32] = [0]

        public init<Texts: Sequence>(searchTexts: Texts) where Texts.Element == String {
            for searchText in searchTexts { append(searchText) }
        }

        public var count: Int { firstWord.count - 1 }

        private mutating func append(_ searchText: String) {
            let base = text.count
            text.append(contentsOf: searchText.utf8)
            text.withUnsafeBufferPointer { buffer in
                func add(_ range: Range<Int>) {
                    let word = StringSimilarity.Bytes(rebasing: buffer[range])
                    words.append(
                        Word(
                            start: Int32(range.lowerBound), end: Int32(range.upperBound), bytes: NameSearch.byteSet(word),
                            soundex: StringSimilarity.soundexCode(word) ?? 0))
                }
                var start = base
                for index in base..<buffer.count where buffer[index] == 32 {
                    if index > start { add(start..<index) }
                    start = index + 1
                }
                if buffer.count > start { add(start..<buffer.count) }
            }
            firstWord.append(Int32(words.count))
        }

        /// Each candidate that matches `search`, by its place in this set, with its score.
        public func matches(_ search: NameSearch) -> [(index: Int, score: Score)] {
            var found: [(index: Int, score: Score)] = []
            text.withUnsafeBufferPointer { text in
                words.withUnsafeBufferPointer { words in
                    firstWord.withUnsafeBufferPointer { firstWord in
                        for candidate in 0..<(firstWord.count - 1) {
                            let own = UnsafeBufferPointer(
                                rebasing: words[Int(firstWord[candidate])..<Int(firstWord[candidate + 1])])
                            if let score = search.score(text, own) { found.append((candidate, score)) }
                        }
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

    /// How a candidate whose words are `words` (in `text`) matches: nil when some term matches
    /// none of its words.
    private func score(_ text: StringSimilarity.Bytes, _ words: UnsafeBufferPointer<Candidates.Word>) -> Score? {
        var worst = SearchRank.exact
        var total = 0
        for term in terms {
            guard let rank = Self.rank(term, text, words) else { return nil }
            worst = max(worst, rank)
            total += rank.rawValue
        }
        return Score(worst: worst, total: total)
    }

    private static func rank(
        _ term: Term, _ text: StringSimilarity.Bytes, _ words: UnsafeBufferPointer<Candidates.Word>
    ) -> SearchRank? {
        term.bytes.withUnsafeBufferPointer { termBytes in
            var best: SearchRank?
            for candidateWord in words {
                let word = StringSimilarity.Bytes(rebasing: text[Int(candidateWord.start)..<Int(candidateWord.end)])
                if word.count >= termBytes.count, startsWith(word, termBytes) {
                    if word.count == termBytes.count { return .exact }
                    best = .prefix
                    continue
                }
                if let found = best, found <= .substring { continue }
                if contains(word, termBytes) {
                    best = .substring
                    continue
                }
                if let found = best, found <= .fuzzy { continue }
                // Short terms would be one edit from half the address book.
                guard termBytes.count >= 3 else { continue }
                if isFuzzy(termBytes, word, shared: sharedBytes(termBytes, candidateWord.bytes)) {
                    best = .fuzzy
                } else if best == nil, let soundex = term.soundex, soundex == candidateWord.soundex {
                    best = .phonetic
                }
            }
            return best
        }
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
