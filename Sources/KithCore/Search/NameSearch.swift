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

    /// One candidate (a contact) read from its stored search text: its bytes and, per word, where
    /// it is, which bytes it holds and its Soundex, so a search over many reads each only once and
    /// skips the costly measures where they cannot match (issue 18: they were 90% of a search).
    public struct Candidate: Sendable {
        struct Word: Sendable {
            let range: Range<Int>
            /// Bit `byte & 63` for each byte of the word: a superset of its bytes, so a term byte
            /// whose bit is clear is surely not in the word.
            let bytes: UInt64
            /// `StringSimilarity.soundexCode`, 0 when the word has no letter.
            let soundex: UInt32
        }

        let bytes: [UInt8]
        let words: [Word]

        public init(searchText text: String) {
            let bytes = Array(text.utf8)
            var words: [Word] = []
            var start = 0
            bytes.withUnsafeBufferPointer { buffer in
                func add(_ range: Range<Int>) {
                    let word = StringSimilarity.Bytes(rebasing: buffer[range])
                    words.append(
                        Word(range: range, bytes: NameSearch.byteSet(word), soundex: StringSimilarity.soundexCode(word) ?? 0))
                }
                for (index, byte) in buffer.enumerated() where byte == 32 {
                    if index > start { add(start..<index) }
                    start = index + 1
                }
                if buffer.count > start { add(start..<buffer.count) }
            }
            self.bytes = bytes
            self.words = words
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

    /// How a candidate matches: nil when some term matches none of its words.
    public func score(_ candidate: Candidate) -> Score? {
        candidate.bytes.withUnsafeBufferPointer { text in
            var worst = SearchRank.exact
            var total = 0
            for term in terms {
                let rank = term.bytes.withUnsafeBufferPointer { Self.rank($0, term.soundex, text, candidate.words) }
                guard let rank else { return nil }
                worst = max(worst, rank)
                total += rank.rawValue
            }
            return Score(worst: worst, total: total)
        }
    }

    private static func rank(
        _ term: StringSimilarity.Bytes, _ soundex: UInt32?, _ text: StringSimilarity.Bytes, _ words: [Candidate.Word]
    ) -> SearchRank? {
        var best: SearchRank?
        for candidateWord in words {
            let word = StringSimilarity.Bytes(rebasing: text[candidateWord.range])
            if word.count >= term.count, startsWith(word, term) {
                if word.count == term.count { return .exact }
                best = .prefix
                continue
            }
            if let found = best, found <= .substring { continue }
            if contains(word, term) {
                best = .substring
                continue
            }
            if let found = best, found <= .fuzzy { continue }
            // Short terms would be one edit from half the address book.
            guard term.count >= 3 else { continue }
            if isFuzzy(term, word, shared: sharedBytes(term, candidateWord.bytes)) {
                best = .fuzzy
            } else if best == nil, let soundex, soundex == candidateWord.soundex {
                best = .phonetic
            }
        }
        return best
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
