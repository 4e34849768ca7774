import KithCore
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648's test vectors, in the URL alphabet and without padding.
    static let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]

    @Test func matchesTheRFC() {
        for (plain, encoded) in Self.vectors { #expect(Base64URL.encode(Array(plain.utf8)) == encoded) }
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
    }

    @Test func decodesWhatItEncodes() {
        for (plain, encoded) in Self.vectors { #expect(Base64URL.decode(encoded) == Array(plain.utf8)) }
        #expect(Base64URL.decode("-_-_") == [0xfb, 0xff, 0xbf])
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    /// Only the one text `encode` writes is read back: another alphabet, padding, white space, a
    /// length no byte string has, or stray bits in the last character are refused.
    @Test func refusesEverythingElse() {
        for text in ["+/+/", "Zg==", "Zm9v\n", " Zm9v", "Z", "Zm9vY", "Zh", "Zm9", "Zm-", "é", "Zm9v%"] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        #expect(Base64URL.decode("Zm8") != nil && Base64URL.decode("Zm9") == nil)
    }
}
