import Foundation

/// How well a search term matches a word, best first.
public enum SearchRank: Int, Comparable, Sendable {
    case exact, prefix, substring, fuzzy, phonetic

    public static func < (lhs: SearchRank, rhs: SearchRank) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Contact search as people expect it ("John" finds Jon and Jonathan): a term matches a word
/// exactly, as its beginning, inside it (Monica's own search is a substring match, so nothing it
/// finds is lost), within a typo (Jaro-Winkler >= 0.9, or one edit of the word or of its
/// beginning), or by sound (Soundex). Every term of the query must match some word; a contact ranks
/// by its worst term, then by the sum of its terms. Used by the server's `/api` search and by
/// KithKit's offline search, so both order results alike.
public struct NameSearch: Sendable {
    /// A folded term with what the fuzzy tiers need, computed once per search.
    struct Term: Sendable {
        let text: String
        let scalars: [Unicode.Scalar]
        let soundex: String?
    }

    let terms: [Term]

    /// Nil when the query has no word to search for.
    public init?(_ query: String) {
        let terms = Self.words(in: query).map {
            Term(text: $0, scalars: Array($0.unicodeScalars), soundex: StringSimilarity.soundex(Array($0.unicodeScalars)))
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

    /// Precomputed words of one candidate (a contact), so a search over many pays folding once.
    public struct Candidate: Sendable {
        let words: [String]
        let scalars: [[Unicode.Scalar]]

        /// `text` is already what `NameSearch.searchText(of:)` made, as stored beside a contact.
        public init(searchText text: String) {
            words = text.split(separator: " ").map(String.init)
            scalars = words.map { Array($0.unicodeScalars) }
        }
    }

    /// The text a candidate is stored with: its words, space separated, folded once at write time.
    public static func searchText(of fields: [String?]) -> String {
        fields.compactMap { $0 }.flatMap(words(in:)).joined(separator: " ")
    }

    /// How a candidate matches: nil when some term matches none of its words.
    public func score(_ candidate: Candidate) -> Score? {
        var worst = SearchRank.exact
        var total = 0
        for term in terms {
            guard let rank = Self.rank(term, candidate) else { return nil }
            worst = max(worst, rank)
            total += rank.rawValue
        }
        return Score(worst: worst, total: total)
    }

    public struct Score: Comparable, Sendable {
        public let worst: SearchRank
        public let total: Int

        public static func < (lhs: Score, rhs: Score) -> Bool {
            (lhs.worst, lhs.total) < (rhs.worst, rhs.total)
        }
    }

    static func rank(_ term: Term, _ candidate: Candidate) -> SearchRank? {
        var best: SearchRank?
        func consider(_ rank: SearchRank) { if best == nil || rank < best! { best = rank } }
        for (index, word) in candidate.words.enumerated() {
            if word == term.text { return .exact }
            if word.hasPrefix(term.text) {
                consider(.prefix)
            } else if word.contains(term.text) {
                consider(.substring)
            }
            if let found = best, found <= .substring { continue }
            let scalars = candidate.scalars[index]
            // Short terms would be one edit from half the address book.
            if term.scalars.count >= 3,
                StringSimilarity.jaroWinkler(term.scalars, scalars) >= 0.9
                    || StringSimilarity.withinOneEdit(term.scalars, scalars)
                    || (term.scalars.count >= 4 && StringSimilarity.prefixWithinOneEdit(term.scalars, of: scalars))
            {
                consider(.fuzzy)
            } else if term.scalars.count >= 3, let code = term.soundex,
                code == StringSimilarity.soundex(scalars)
            {
                consider(.phonetic)
            }
        }
        return best
    }
}
