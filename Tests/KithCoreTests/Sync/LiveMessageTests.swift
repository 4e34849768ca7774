import Foundation
import KithCore
import Testing

@Suite("Live messages")
struct LiveMessageTests {
    /// `changed` is written without the encoder; it must still be the encoder's text.
    @Test(arguments: ["user:0f9c2e3a-1b2c-4d5e-8f90-123456789abc", "family:é \"quoted\" \\ back"])
    func aChangedNudgeIsTheTextTheEncoderWrites(_ scope: String) throws {
        let message = LiveMessage.changed(scope: scope, seq: 9_007_199_254_740_993)
        let encoded = String(decoding: try WireCoding.encoder().encode(message), as: UTF8.self)
        #expect(message.text == encoded)
        #expect(LiveMessage(text: message.text) == message)
    }

    @Test func otherMessagesRoundTrip() {
        for message in [LiveMessage.ready, .auth(token: "kat_x"), .error(code: "unauthorized", message: "No.")] {
            #expect(LiveMessage(text: message.text) == message)
        }
    }
}
