import Foundation

/// Searches the built-in food list the same way on the server and on devices: every word of the
/// query must begin a word of the food's name, ignoring case and accents ("jalapeno" finds
/// "Jalapeño pepper", "chick bre" finds "Chicken breast, roasted"). Best first (`Rank`): the name
/// itself, then the foods the query names before the first comma ("apple" is "Apple, raw", not
/// "Apple pie"), then names that begin with the query, then the rest; within a rank, shorter names
/// (the more general food) first, then alphabetical.
public struct BuiltInFoodSearch: Sendable {
    /// How a food's name matches a query, best first.
    public enum Rank: Int, Comparable, Sendable {
        /// The name's words are the query's words.
        case exact
        /// The name before its first comma is the query: "Apple, raw, with skin" for "apple".
        case head
        /// The name begins with the query's words, whole: "Apple pie" for "apple".
        case phrase
        /// The name begins with the query, its last word cut short: "Applesauce" for "apple".
        case phrasePrefix
        /// The query's first word begins the name's first word.
        case leadingWord
        /// Every query word is a whole word of the name.
        case wholeWords
        /// Every query word begins some word of the name.
        case wordPrefixes

        public static func < (lhs: Rank, rhs: Rank) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private struct Entry: Sendable {
        let food: BuiltInFood
        let words: [String]
        let head: [String]
        let folded: String
    }

    private let entries: [Entry]

    /// The shared search over `BuiltInFoods.all` (its index built once).
    public static let standard = BuiltInFoodSearch(foods: BuiltInFoods.all)

    public init(foods: [BuiltInFood]) {
        entries = foods.map { food in
            let words = Self.words(in: food.name)
            return Entry(food: food, words: words, head: Self.head(of: food.name), folded: words.joined(separator: " "))
        }
    }

    /// Lower-case, accent-free words: letters and digits, split at everything else.
    public static func words(in text: String) -> [String] {
        NameSearch.fold(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// The words of a name before its first comma: the food itself, in USDA's way of naming.
    static func head(of name: String) -> [String] {
        words(in: String(name.prefix { $0 != "," }))
    }

    /// How a food named `name` matches `query`; nil when some word of the query begins no word of the name.
    public static func rank(of name: String, query: String) -> Rank? {
        rank(of: words(in: name), head: head(of: name), query: words(in: query))
    }

    static func rank(of nameWords: [String], head: [String], query queryWords: [String]) -> Rank? {
        guard !queryWords.isEmpty,
            queryWords.allSatisfy({ term in nameWords.contains { $0.hasPrefix(term) } })
        else { return nil }
        if nameWords == queryWords { return .exact }
        if head == queryWords { return .head }
        if queryWords.count <= nameWords.count {
            if nameWords.starts(with: queryWords) { return .phrase }
            let leading = zip(queryWords.dropLast(), nameWords).allSatisfy { $0 == $1 }
            if let last = queryWords.last, leading, nameWords[queryWords.count - 1].hasPrefix(last) {
                return .phrasePrefix
            }
        }
        if let first = queryWords.first, let firstName = nameWords.first, firstName.hasPrefix(first) {
            return .leadingWord
        }
        if queryWords.allSatisfy(nameWords.contains) { return .wholeWords }
        return .wordPrefixes
    }

    /// The foods matching `query`, best first.
    public func matches(_ query: String) -> [BuiltInFood] {
        let queryWords = Self.words(in: query)
        guard !queryWords.isEmpty else { return [] }
        return
            entries
            .compactMap { entry in Self.rank(of: entry.words, head: entry.head, query: queryWords).map { (entry, $0) } }
            .sorted { lhs, rhs in
                if lhs.1 != rhs.1 { return lhs.1 < rhs.1 }
                if lhs.0.words.count != rhs.0.words.count { return lhs.0.words.count < rhs.0.words.count }
                return lhs.0.folded < rhs.0.folded
            }
            .map { $0.0.food }
    }

    /// At most `limit` foods for `query`, best first, each food's household serving before its 100 g.
    public func search(_ query: String, limit: Int) -> [Food] {
        guard limit > 0 else { return [] }
        var foods: [Food] = []
        for match in matches(query) {
            for serving in match.servings {
                guard foods.count < limit else { return foods }
                foods.append(serving)
            }
        }
        return foods
    }
}
