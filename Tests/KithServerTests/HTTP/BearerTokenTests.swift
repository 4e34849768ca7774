import Testing

@testable import KithServer

@Suite("Bearer tokens read from the Authorization header")
struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer kat_abc", "kat_abc"), ("bearer kat_abc", "kat_abc"), ("BEARER kat_abc", "kat_abc"),
        ("Bearer   kat_abc  ", "kat_abc"), ("Bearer \tkat_abc\t", "kat_abc"), ("Bearer a b", "a b"),
    ])
    func theTokenAfterTheSchemeIsRead(_ header: String, _ token: String) {
        #expect(BearerAuthMiddleware.bearerToken(header: header) == token)
    }

    @Test(arguments: [
        "", "Bearer", "Bearer ", "Bearer   \t ", "Bearerkat_abc", "Bearer\tkat_abc", "Basic a2l0aDpraXRo", "Bear kat",
        "Bérer kat", "Bearer\u{00A0}kat", "Token kat_abc",
    ])
    func anotherFormHasNoToken(_ header: String) {
        #expect(BearerAuthMiddleware.bearerToken(header: header) == nil)
    }
}
