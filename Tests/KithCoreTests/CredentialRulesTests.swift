import Foundation
import KithCore
import Testing

@Suite("Credential rules shared by server and clients")
struct CredentialRulesTests {
    @Test func emailsAreTrimmedAndLowerCased() {
        #expect(CredentialRules.normalizedEmail("  Ada.Lovelace@Example.COM \n") == "ada.lovelace@example.com")
    }

    @Test(arguments: ["ada@example.com", "a.b+tag@sub.example.co.uk", "x@y.io", "o'brien@example.ie"])
    func acceptsOrdinaryAddresses(email: String) {
        #expect(CredentialRules.validateEmail(email) == nil)
    }

    @Test(arguments: [
        "", "ada", "ada@", "@example.com", "ada@example", "ada@@example.com", "a b@example.com", "ada@exa mple.com",
        "ada@.example.com", "ada@example..com", "ada@-example.com", "<ada>@example.com", "ada@example.com\u{0}",
        String(repeating: "a", count: 65) + "@example.com", "a@" + String(repeating: "b", count: 250) + ".com",
    ])
    func refusesWhatCannotBeAnAddress(email: String) {
        let problem = CredentialRules.validateEmail(email)
        #expect(problem?.code == "invalid_email")
        #expect(problem?.field == "email")
    }

    @Test func passwordsNeedEightCharactersAndAtMostSeventyTwoBytes() {
        #expect(CredentialRules.validateNewPassword("1234567")?.code == "weak_password")
        #expect(CredentialRules.validateNewPassword("12345678") == nil)
        // Eight characters, even when they are multi-byte.
        #expect(CredentialRules.validateNewPassword("éééééééé") == nil)
        #expect(CredentialRules.validateNewPassword(String(repeating: "x", count: 72)) == nil)
        #expect(CredentialRules.validateNewPassword(String(repeating: "x", count: 73))?.code == "password_too_long")
        // 37 two-byte characters are 74 bytes.
        #expect(CredentialRules.validateNewPassword(String(repeating: "é", count: 37))?.code == "password_too_long")
        #expect(CredentialRules.validateNewPassword("short", field: "newPassword")?.field == "newPassword")
    }

    @Test func tokenNamesAreOneBoundedLine() {
        #expect(CredentialRules.validateTokenName("laptop backup") == nil)
        #expect(CredentialRules.validateTokenName("   ")?.field == "name")
        #expect(CredentialRules.validateTokenName("two\nlines") != nil)
        #expect(CredentialRules.validateTokenName("nul\u{0}") != nil)
        #expect(CredentialRules.validateTokenName(String(repeating: "n", count: 100)) == nil)
        #expect(CredentialRules.validateTokenName(String(repeating: "n", count: 101)) != nil)
    }
}

@Suite("Wire conventions")
struct WireCodingTests {
    /// Timestamps are written digit by digit where Foundation's calendar is Gregorian: the text is
    /// what Foundation's formatter wrote, from year 1 to 9999.
    @Test func timestampsAreWhatFoundationWrites() {
        func foundation(_ millis: Int64) -> String {
            let (seconds, fraction) = millis.quotientAndRemainder(dividingBy: 1000)
            let whole = Date(timeIntervalSince1970: TimeInterval(fraction < 0 ? seconds - 1 : seconds))
            let text = whole.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
            return String(text.dropLast()) + "." + String((fraction < 0 ? fraction + 1000 : fraction) + 1000).dropFirst() + "Z"
        }
        var generator = SystemRandomNumberGenerator()
        let samples: [Int64] =
            [UTCTimestamp.earliestMillis, UTCTimestamp.gregorianMillis - 1, UTCTimestamp.gregorianMillis, -1, 0]
            + (0..<1_000).map { _ in .random(in: UTCTimestamp.earliestMillis...UTCTimestamp.latestMillis, using: &generator) }
        for millis in samples {
            #expect(WireCoding.formatTimestamp(Date(epochMillis: millis)) == foundation(millis), "\(millis)")
        }
    }

    @Test func timestampsCarryMillisecondsInUTC() throws {
        let date = Date(timeIntervalSince1970: 1_795_000_000.123)
        #expect(WireCoding.formatTimestamp(date) == "2026-11-18T11:06:40.123Z")
        let parsed = try #require(WireCoding.parseTimestamp("2026-11-18T11:06:40.123Z"))
        #expect(abs(parsed.timeIntervalSince(date)) < 0.001)
        #expect(WireCoding.parseTimestamp("2026-11-18T11:06:40Z") != nil)
        #expect(WireCoding.formatTimestamp(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
        #expect(WireCoding.formatTimestamp(Date(timeIntervalSince1970: 0.9996)) == "1970-01-01T00:00:01.000Z")
        #expect(WireCoding.parseTimestamp("yesterday") == nil)
    }

    @Test func idsAreLowerCaseOnTheWireAndEitherCaseIsRead() throws {
        let id = UUID()
        let user = UserDTO(id: id, email: "ada@example.com", createdAt: Date(timeIntervalSince1970: 0))
        let json = String(decoding: try WireCoding.encoder().encode(user), as: UTF8.self)
        #expect(json.contains(id.uuidString.lowercased()))
        #expect(!json.contains(id.uuidString))
        let upper = json.replacingOccurrences(of: id.uuidString.lowercased(), with: id.uuidString)
        #expect(try WireCoding.decoder().decode(UserDTO.self, from: Data(upper.utf8)) == user)
    }

    @Test func errorBodiesOmitAMissingField() throws {
        let body = APIErrorBody(APIErrorDetail(.unauthorized, "Sign in to continue."))
        let json = String(decoding: try WireCoding.encoder().encode(body), as: UTF8.self)
        #expect(json == #"{"error":{"code":"unauthorized","message":"Sign in to continue."}}"#)
    }
}
