import Crypto
import Foundation
import KithCore

/// One push as it leaves the server: what the device shows (`WebPushPayload`, encrypted) and the
/// headers that tell the push service how to treat it (RFC 8030 §5).
struct PushMessage: Sendable {
    var payload: WebPushPayload
    /// When the notice stops mattering (epoch ms): the push service keeps the message at most
    /// until then (`TTL`), and a job that runs later sends nothing.
    var mattersUntil: Int64
    /// Names what a newer message replaces at the push service while the device is away (`Topic`).
    var topic: String
    /// `high` wakes a phone at once; `normal` may wait for the device's next wake-up.
    var urgency: Urgency

    enum Urgency: String, Sendable {
        case normal, high
    }

    /// Seconds left until it stops mattering; nil once it has (nothing is sent then).
    func ttl(now: Int64) -> Int? {
        let left = (mattersUntil - now) / 1000
        return left > 0 ? Int(left) : nil
    }

    /// A `Topic` from `seed`: at most 32 characters of base64url (RFC 8030 §5.4), the same for the
    /// same seed on every server.
    static func topic(_ seed: String) -> String {
        String(WebPushBase64.encode(SHA256.hash(data: Data(seed.utf8))).prefix(32))
    }

    /// The payload as JSON, small enough for one encrypted record: the longer of title and body is
    /// cut (ending in "…") until it fits. Throws only when even that cannot make it fit.
    func plaintext(limit: Int = WebPushEncryption.largestPlaintext) throws -> [UInt8] {
        var payload = self.payload
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(WireCoding.formatTimestamp(date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes]
        while true {
            let bytes = [UInt8](try encoder.encode(payload))
            let excess = bytes.count - limit
            if excess <= 0 { return bytes }
            // Escapes only make a character longer in JSON than in UTF-8, so cutting `excess`
            // bytes of text (and room for the ellipsis) cuts at least as much JSON.
            if payload.title.utf8.count >= payload.body.utf8.count, payload.title.utf8.count > Self.ellipsis.utf8.count
            {
                payload.title = Self.shortened(payload.title, by: excess)
            } else if payload.body.utf8.count > Self.ellipsis.utf8.count {
                payload.body = Self.shortened(payload.body, by: excess)
            } else {
                throw PushMessageTooLong(bytes: bytes.count)
            }
        }
    }

    static let ellipsis = "…"

    /// `text` without enough whole characters at its end to be `bytes` UTF-8 bytes shorter once
    /// it ends in "…".
    static func shortened(_ text: String, by bytes: Int) -> String {
        var kept = Substring(text.hasSuffix(ellipsis) ? String(text.dropLast()) : text)
        let target = text.utf8.count - bytes - ellipsis.utf8.count
        while !kept.isEmpty, kept.utf8.count > max(0, target) { kept = kept.dropLast() }
        return String(kept).trimmedWhitespace + ellipsis
    }
}

struct PushMessageTooLong: Error, CustomStringConvertible {
    let bytes: Int
    var description: String {
        "a push message of \(bytes) bytes does not fit \(WebPushEncryption.largestPlaintext) even with its title and body cut"
    }
}
