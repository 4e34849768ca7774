import Testing
import KithCore

@testable import KithServer

/// Only a token's hash is stored, so the hash must be SHA-256 in lowercase hex exactly: a database
/// written by an earlier version holds these strings.
@Suite("Token hashes")
struct TokensTests {
    @Test func theHashIsSHA256InLowercaseHex() {
        #expect(Tokens.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Tokens.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func generatedTokensAreDistinctAndHashDifferently() {
        let first = Tokens.generate(.access)
        let second = Tokens.generate(.access)
        #expect(first.hasPrefix("kat_") && first != second)
        #expect(Tokens.hash(first) != Tokens.hash(second))
        #expect(Tokens.hash(first).count == 64)
    }
}

extension TokensTests {
    /// RFC 4648's test vectors, in the URL alphabet and without padding.
    @Test func base64URLMatchesTheRFC() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors { #expect(Base64URL.encode(Array(plain.utf8)) == encoded) }
        #expect(Base64URL.encode([0xfb, 0xff, 0xbf]) == "-_-_")
        #expect(Tokens.generate(.refresh).count == "krt_".count + 43)
    }
}
