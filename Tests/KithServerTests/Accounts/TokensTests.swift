import Testing

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
    /// 256 random bits in base64url (KithCore's `Base64URL`, tested there) behind the prefix.
    @Test func aTokenIsItsPrefixAndFortyThreeCharacters() {
        #expect(Tokens.generate(.refresh).count == "krt_".count + 43)
    }
}
