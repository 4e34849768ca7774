import Foundation
import KithCore
import Testing

@testable import KithServer

/// What a push carries and how the push service's answer is read.
@Suite("Push messages")
struct PushMessageTests {
    static func notice(
        kind: NoticeKind, title: String = "Feed the cat", body: String = "Due now ({time:1800000000000})."
    )
        -> NoticeRow
    {
        NoticeRow(
            id: "n-1", userID: "u-1", familyID: "f-1", reminderID: "r-1", occurrence: 1_800_000_000_000,
            kind: kind.rawValue,
            title: title, body: body,
            dueAt: kind.lead.map { 1_800_000_000_000 - Int64($0 * 1000) } ?? 1_800_000_000_000,
            deliveredAt: 1_800_000_000_000, late: 0, readAt: nil, seq: 1)
    }

    @Test func aNoticeBecomesThePayloadTheDeviceShows() throws {
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let message = try #require(FamilyNoticePushes.message(for: Self.notice(kind: .due), familyZone: paris))
        let payload = try JSONDecoder().decode([String: String].self, from: Data(try message.plaintext()))
        #expect(
            payload == [
                "title": "Feed the cat", "body": "Due now (09:00).", "url": "/family/reminders/r-1",
                "tag": "reminder:r-1:1800000000000", "kind": "due", "noticeId": "n-1", "at": "2027-01-15T08:00:00.000Z",
            ])
        #expect(message.urgency == .high)
        #expect(message.topic.count == 32 && WebPushBase64.decode(message.topic) != nil)
        let completion = try #require(
            FamilyNoticePushes.message(for: Self.notice(kind: .completion), familyZone: paris))
        #expect(completion.payload.url == "/family/notices" && completion.urgency == .normal)
        #expect(completion.topic != message.topic, "a topic per reminder and kind")
    }

    @Test func aBeforeDueNoticeMattersUntilTheDueTimeOthersHalfADayOrADay() throws {
        let due: Int64 = 1_800_000_000_000
        let before = try #require(FamilyNoticePushes.message(for: Self.notice(kind: .before2), familyZone: nil))
        #expect(before.ttl(now: due - 120_000) == 120)
        #expect(before.ttl(now: due - 500) == nil, "less than a second left: not sent")
        #expect(before.ttl(now: due + 60_000) == nil, "never negative")
        let dueNow = try #require(FamilyNoticePushes.message(for: Self.notice(kind: .due), familyZone: nil))
        #expect(dueNow.ttl(now: due) == 12 * 3600)
        let moved = try #require(FamilyNoticePushes.message(for: Self.notice(kind: .movement), familyZone: nil))
        #expect(moved.ttl(now: due) == 24 * 3600)
    }

    @Test func aLongTitleOrBodyIsShortenedToFitOneRecord() throws {
        let long = String(repeating: "Très long titre ", count: 400)
        var message = try #require(
            FamilyNoticePushes.message(for: Self.notice(kind: .due, title: long), familyZone: nil))
        var bytes = try message.plaintext()
        #expect(bytes.count <= WebPushEncryption.largestPlaintext)
        var payload = try WireCoding.decoder().decode(WebPushPayload.self, from: Data(bytes))
        #expect(payload.title.hasSuffix("…") && long.hasPrefix(payload.title.dropLast()))
        #expect(payload.body == "Due now (08:00 UTC).", "the short body is left whole")
        #expect(payload.title.utf8.count > 3000, "cut no more than needed")

        // Characters JSON escapes take more room in the message than in the text.
        message.payload.title = "Short"
        message.payload.body = String(repeating: "\u{1}\"", count: 3000)
        bytes = try message.plaintext()
        #expect(bytes.count <= WebPushEncryption.largestPlaintext)
        payload = try WireCoding.decoder().decode(WebPushPayload.self, from: Data(bytes))
        #expect(payload.body.hasSuffix("…") && payload.title == "Short")

        message.payload.url = "/" + String(repeating: "x", count: 5000)
        #expect(throws: PushMessageTooLong.self) { try message.plaintext() }
    }

    @Test func thePushServicesAnswerDecidesWhatComesNext() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let outcome = { (status: Int, retryAfter: String?) in
            WebPushSender.outcome(status: status, retryAfter: retryAfter, body: "no", now: now)
        }
        #expect(outcome(201, nil) == .accepted)
        #expect(outcome(202, nil) == .accepted)
        #expect(outcome(410, nil) == .gone(status: 410))
        #expect(outcome(404, nil) == .gone(status: 404))
        #expect(outcome(429, "30") == .later(status: 429, notBefore: now.epochMillis + 30_000))
        #expect(outcome(503, "Fri, 15 Jan 2027 07:59:00 GMT") == .later(status: 503, notBefore: now.epochMillis))
        #expect(
            outcome(503, "Fri, 15 Jan 2027 08:00:20 GMT") == .later(status: 503, notBefore: now.epochMillis + 20_000))
        #expect(outcome(500, nil) == .later(status: 500, notBefore: nil))
        #expect(outcome(500, "soon") == .later(status: 500, notBefore: nil))
        #expect(outcome(400, nil) == .refused(status: 400, body: "no"))
        #expect(outcome(413, nil) == .refused(status: 413, body: "no"))
        #expect(outcome(403, nil) == .refused(status: 403, body: "no"))
    }

    @Test func aDeviceIsNamedByItsBrowser() {
        let agents: [(String?, String)] = [
            (
                "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
                "Chrome on Android"
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
                "Edge on Windows"
            ),
            ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Mac"),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari on iPhone"
            ),
            ("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0", "Firefox on Linux"),
            ("curl/8.5.0", "A browser"), (nil, "A browser"),
        ]
        for (agent, name) in agents { #expect(DeviceName.from(userAgent: agent) == name, "\(agent ?? "none")") }
    }
}
