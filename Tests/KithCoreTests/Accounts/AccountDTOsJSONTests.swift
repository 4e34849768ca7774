import Foundation
import KithCore
import Testing

/// The server answers a sign-in or refresh with `AuthSessionResponse.writeJSON` and reads a refresh
/// with `RefreshRequest(json:)`: each must say and read what the wire's coders say and read.
@Suite("Account answers written and read without the coders")
struct AccountDTOsJSONTests {
    static let user = UserDTO(
        id: UUID(), email: "zoë.\"quoted\"/slash\\@example.com", createdAt: Date(epochMillis: 1_795_000_000_123))

    @Test(arguments: [nil, "kdv_device"])
    func aSessionIsWrittenAsTheEncoderWritesIt(deviceToken: String?) throws {
        let session = AuthSessionResponse(
            user: Self.user, accessToken: "kat_a", refreshToken: "krt_\u{1}r", expiresIn: 3600, deviceToken: deviceToken)
        let written = try #require(JSONTree.parse(bytes: session.jsonBytes))
        let encoded = try #require(JSONTree.parse(try WireCoding.encoder().encode(session)))
        #expect(written == encoded)
        let decoded = try WireCoding.decoder().decode(AuthSessionResponse.self, from: Data(session.jsonBytes))
        #expect(decoded.accessToken == session.accessToken && decoded.refreshToken == session.refreshToken)
        #expect(decoded.deviceToken == session.deviceToken && decoded.expiresIn == session.expiresIn)
        #expect(decoded.user.id == session.user.id && decoded.user.email == session.user.email)
        #expect(decoded.user.createdAt.epochMillis == session.user.createdAt.epochMillis)
        // Keys in the encoder's (sorted) order, and no member for a missing device token.
        let keys = written.objectValue?.keys
        #expect(keys == (deviceToken == nil ? ["accessToken", "expiresIn", "refreshToken", "user"]
            : ["accessToken", "deviceToken", "expiresIn", "refreshToken", "user"]))
    }

    @Test(arguments: [-62_135_596_800_000, -12_212_553_600_001, 0, 1_795_000_000_123, 253_402_300_799_999] as [Int64])
    func aUserIsWrittenAsTheEncoderWritesItInEveryYear(millis: Int64) throws {
        let user = UserDTO(id: UUID(), email: "a@example.com", createdAt: Date(epochMillis: millis))
        #expect(JSONTree.parse(bytes: user.jsonBytes) == JSONTree.parse(try WireCoding.encoder().encode(user)))
    }

    @Test func aRefreshIsReadAsTheDecoderReadsIt() throws {
        for text in [#"{"refreshToken":"krt_x"}"#, #" { "other" : [1, {"a": null}], "refreshToken" : "krt_\u00e9\n" } "#] {
            let decoded = try WireCoding.decoder().decode(RefreshRequest.self, from: Data(text.utf8))
            #expect(try RefreshRequest(json: Array(text.utf8)).refreshToken == decoded.refreshToken)
        }
    }

    /// What it does not read goes to the decoder: it must never read a body the decoder refuses
    /// or reads otherwise (a key given twice: the decoder keeps the first).
    @Test(arguments: [
        "", "[]", "{}", #"{"refreshToken":1}"#, #"{"refreshToken":null}"#, #"{"refreshToken":"a","refreshToken":"b"}"#,
        "\u{FEFF}" + #"{"refreshToken":"a"}"#, #"{"refreshToken":"\ud800"}"#,
    ])
    func whatItDoesNotReadIsLeftToTheDecoder(_ text: String) {
        #expect(throws: (any Error).self) { try RefreshRequest(json: Array(text.utf8)) }
    }

    @Test func theDecoderKeepsTheFirstOfTwoKeys() throws {
        let text = #"{"refreshToken":"a","refreshToken":"b"}"#
        #expect(try WireCoding.decoder().decode(RefreshRequest.self, from: Data(text.utf8)).refreshToken == "a")
    }
}
