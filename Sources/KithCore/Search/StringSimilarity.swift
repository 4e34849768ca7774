/// The string measures contact search ranks by. They work on the UTF-8 bytes of already folded
/// text (lower case, no accents), so "José" and "jose" compare equal before any of these run, and
/// a search over 100,000 contacts allocates nothing per comparison. Letters outside ASCII count
/// as their bytes: close enough for typos, and exact matches are unaffected.
public enum StringSimilarity {
    public typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Jaro-Winkler similarity in 0...1 (1 = same). Rewards a shared beginning, which is how names
    /// are mistyped and abbreviated.
    public static func jaroWinkler(_ a: String, _ b: String) -> Double {
        withBytes(a, b) { jaroWinkler($0, $1) }
    }

    public static func jaroWinkler(_ a: Bytes, _ b: Bytes) -> Double {
        if a.isEmpty || b.isEmpty { return a.isEmpty && b.isEmpty ? 1 : 0 }
        guard a.count <= 64, b.count <= 64 else { return a.elementsEqual(b) ? 1 : 0 }
        let window = max(0, max(a.count, b.count) / 2 - 1)
        var aMatched: UInt64 = 0
        var bMatched: UInt64 = 0
        var matches = 0
        for i in 0..<a.count {
            let low = max(0, i - window)
            let high = min(b.count - 1, i + window)
            guard low <= high else { continue }
            for j in low...high where bMatched & (1 << j) == 0 && a[i] == b[j] {
                aMatched |= 1 << i
                bMatched |= 1 << j
                matches += 1
                break
            }
        }
        guard matches > 0 else { return 0 }
        var transpositions = 0
        var j = 0
        for i in 0..<a.count where aMatched & (1 << i) != 0 {
            while bMatched & (1 << j) == 0 { j += 1 }
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
    public static func withinOneEdit(_ a: String, _ b: String) -> Bool { withBytes(a, b) { withinOneEdit($0, $1) } }

    public static func withinOneEdit(_ a: Bytes, _ b: Bytes) -> Bool {
        let (short, long) = a.count <= b.count ? (a, b) : (b, a)
        guard long.count - short.count <= 1 else { return false }
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        if i == short.count { return true }
        let skip = short.count == long.count ? 1 : 0
        var s = i + skip
        var l = i + 1
        while s < short.count {
            if short[s] != long[l] { return false }
            s += 1
            l += 1
        }
        return true
    }

    /// Whether some beginning of `word` is within one edit of `query`: "john" reaches "jonathan"
    /// through "jon". What a person types before finishing a name they half remember.
    public static func prefixWithinOneEdit(_ query: String, of word: String) -> Bool {
        withBytes(query, word) { prefixWithinOneEdit($0, of: $1) }
    }

    public static func prefixWithinOneEdit(_ query: Bytes, of word: Bytes) -> Bool {
        let shortest = max(0, query.count - 1)
        let longest = min(word.count, query.count + 1)
        guard shortest <= longest else { return false }
        return (shortest...longest).contains { withinOneEdit(query, Bytes(rebasing: word[0..<$0])) }
    }

    /// American Soundex ("robert" and "rupert" are both R163), packed in an integer: the letter,
    /// then three digits. Bytes outside a-z are skipped; nil when there is no letter at all.
    public static func soundex(_ word: String) -> String? {
        var word = word
        return word.withUTF8 { soundexCode($0) }.map(describe)
    }

    public static func soundexCode(_ word: Bytes) -> UInt32? {
        var index = 0
        while index < word.count, !(97...122).contains(word[index]) { index += 1 }
        guard index < word.count else { return nil }
        var code = UInt32(word[index])
        var digits = 0
        var previous = digit(word[index])
        index += 1
        while index < word.count, digits < 3 {
            let letter = word[index]
            index += 1
            guard (97...122).contains(letter) else { continue }
            let current = digit(letter)
            if current != 0, current != previous {
                code = code << 4 | UInt32(current)
                digits += 1
            }
            // H and W do not separate equal codes; vowels do.
            if letter != 104 && letter != 119 { previous = current }
        }
        return code << (4 * UInt32(3 - digits))
    }

    private static func describe(_ code: UInt32) -> String {
        let letter = Character(Unicode.Scalar(UInt8(code >> 12)))
        let digits = (0..<3).map { String((code >> (4 * (2 - $0))) & 0xF) }
        return String(letter).uppercased() + digits.joined()
    }

    /// Soundex digit of a lower-case letter; 0 for vowels and the letters it ignores.
    private static func digit(_ letter: UInt8) -> UInt8 {
        switch letter {
        case 98, 102, 112, 118: 1  // b f p v
        case 99, 103, 106, 107, 113, 115, 120, 122: 2  // c g j k q s x z
        case 100, 116: 3  // d t
        case 108: 4  // l
        case 109, 110: 5  // m n
        case 114: 6  // r
        default: 0
        }
    }

    private static func withBytes<T>(_ a: String, _ b: String, _ body: (Bytes, Bytes) -> T) -> T {
        let a = Array(a.utf8)
        let b = Array(b.utf8)
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in body(a, b) } }
    }
}
