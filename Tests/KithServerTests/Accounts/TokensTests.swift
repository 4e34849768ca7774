import Foundation
import KithCore
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

/// A session's tokens carry its id (decision 107), so the server finds the session by its key.
extension TokensTests {
    @Test func aSessionTokenNamesItsSessionAndStillHoldsTwoHundredFiftySixRandomBits() throws {
        let session = UUID()
        let first = Tokens.generate(.access, session: session)
        let second = Tokens.generate(.access, session: session)
        #expect(first.hasPrefix("kat_") && first.count == "kat_".count + 64)
        #expect(first != second)
        #expect(Tokens.session(of: first) == session && Tokens.session(of: second) == session)
        // Everything after the id is the secret: 32 bytes, as in every other token.
        let bytes = try #require(Base64URL.decode(first.dropFirst(4)))
        let other = try #require(Base64URL.decode(second.dropFirst(4)))
        #expect(bytes.count == 48 && bytes[16...] != other[16...])
    }

    @Test func anyOtherTextNamesNoSession() {
        let valid = Tokens.generate(.refresh, session: UUID())
        for text in [
            Tokens.generate(.refresh), "krt_", "", "krt", "krt_nope", String(valid.dropLast()), valid + "A",
            "krt_" + String(repeating: "!", count: 64), String(valid.dropLast()) + "=",
        ] {
            #expect(Tokens.session(of: text) == nil, "\(text)")
        }
    }

    @Test func secretsCompareEqualOnlyWhenEqual() {
        #expect(Tokens.constantTimeEquals("abc", "abc"))
        #expect(!Tokens.constantTimeEquals("abc", "abd"))
        #expect(!Tokens.constantTimeEquals("abc", "abcd"))
        #expect(Tokens.constantTimeEquals("", ""))
    }
}
