import KithCore
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648's test vectors, in the URL alphabet and without padding.
    @Test func matchesTheRFC() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors { #expect(Base64URL.encode(Array(plain.utf8)) == encoded) }
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
    }
}
