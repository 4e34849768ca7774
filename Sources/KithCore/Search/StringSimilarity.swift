/// The string measures contact search ranks by. They work on Unicode scalars of already folded
/// text (lower case, no accents), so "José" and "jose" compare equal before any of these run.
public enum StringSimilarity {
    /// Jaro-Winkler similarity in 0...1 (1 = same). Rewards a shared beginning, which is how names
    /// are mistyped and abbreviated.
    public static func jaroWinkler(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Double {
        if a.isEmpty || b.isEmpty { return a.isEmpty && b.isEmpty ? 1 : 0 }
        let window = max(0, max(a.count, b.count) / 2 - 1)
        var aMatched = [Bool](repeating: false, count: a.count)
        var bMatched = [Bool](repeating: false, count: b.count)
        var matches = 0
        for i in a.indices {
            let low = max(0, i - window)
            let high = min(b.count - 1, i + window)
            guard low <= high else { continue }
            for j in low...high where !bMatched[j] && a[i] == b[j] {
                aMatched[i] = true
                bMatched[j] = true
                matches += 1
                break
            }
        }
        guard matches > 0 else { return 0 }
        var transpositions = 0
        var j = 0
        for i in a.indices where aMatched[i] {
            while !bMatched[j] { j += 1 }
            if a[i] != b[j] { transpositions += 1 }
            j += 1
        }
        let m = Double(matches)
        let jaro = (m / Double(a.count) + m / Double(b.count) + (m - Double(transpositions / 2)) / m) / 3
        var prefix = 0
        while prefix < min(4, a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
        return jaro + Double(prefix) * 0.1 * (1 - jaro)
    }

    /// Whether `a` turns into `b` with at most one insertion, deletion or substitution.
    public static func withinOneEdit(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard long.count - short.count <= 1 else { return false }
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        if i == short.count { return true }
        if short.count == long.count { return short[(i + 1)...] == long[(i + 1)...] }
        return short[i...] == long[(i + 1)...]
    }

    /// Whether some beginning of `word` is within one edit of `query`: "john" reaches "jonathan"
    /// through "jon". What a person types before finishing a name they half remember.
    public static func prefixWithinOneEdit(_ query: [Unicode.Scalar], of word: [Unicode.Scalar]) -> Bool {
        let shortest = max(0, query.count - 1)
        let longest = min(word.count, query.count + 1)
        guard shortest <= longest else { return false }
        return (shortest...longest).contains { withinOneEdit(query, Array(word[..<$0])) }
    }

    /// American Soundex ("robert" and "rupert" are both R163): the letter, then up to three digits.
    /// Scalars outside a-z are skipped; nil when there is no letter at all.
    public static func soundex(_ word: [Unicode.Scalar]) -> String? {
        let letters = word.filter { $0.value >= 97 && $0.value <= 122 }
        guard let first = letters.first else { return nil }
        var code = String(Character(first)).uppercased()
        var previous = digit(first)
        for letter in letters.dropFirst() {
            let current = digit(letter)
            if let current, current != previous { code.append(current) }
            if code.count == 4 { break }
            // H and W do not separate equal codes; vowels do.
            if letter != "h" && letter != "w" { previous = current }
        }
        return code.padding(toLength: 4, withPad: "0", startingAt: 0)
    }

    private static func digit(_ letter: Unicode.Scalar) -> Character? {
        switch letter {
        case "b", "f", "p", "v": "1"
        case "c", "g", "j", "k", "q", "s", "x", "z": "2"
        case "d", "t": "3"
        case "l": "4"
        case "m", "n": "5"
        case "r": "6"
        default: nil
        }
    }
}
