import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends one encrypted message to a device's push service (RFC 8030 §5) and says what came of it.
/// Each send checks the endpoint again, resolves its host and refuses every non-public answer,
/// then connects to the address it checked (a client of its own whose DNS override pins the host
/// to it, with the certificate still checked against the host's name); redirects are not
/// followed. A client per send costs the keep-alive a shared one would give, and buys that the
/// server never connects anywhere it did not check.
struct WebPushSender: Sendable {
    let keys: VAPIDKeyStore
    let endpoints: PushEndpointRule
    /// The VAPID `sub`: who push services can reach about this server's messages (read when
    /// sending: the public URL may be known only once the server listens).
    let subject: @Sendable () -> String
    let timeout: Duration

    enum Outcome: Equatable, Sendable {
        /// 201 (or 200, 202): the push service has it.
        case accepted
        /// 404 or 410: the subscription is gone for good.
        case gone(status: Int)
        /// 429 or 5xx: try again, not before `notBefore` (epoch ms) if the service said when.
        case later(status: Int, notBefore: Int64?)
        /// Any other answer (400, 413, …): the message will never be taken as it is.
        case refused(status: Int, body: String)
        /// The endpoint is not one the server sends to (its name now resolves to a private address).
        case notAllowed(String)
    }

    func send(_ plaintext: [UInt8], to device: PushSubscriptionRow, message: PushMessage, ttl: Int, now: Date)
        async throws -> Outcome
    {
        let target: (url: URL, address: String)
        let rule = endpoints
        switch try await NIOThreadPool.singleton.runIfActive({ try rule.connectionAddress(for: device.endpoint) }) {
        case .success(let checked): target = checked
        case .failure(let refusal): return .notAllowed(refusal.description)
        }
        let subscriber: WebPushSubscriberKeys
        do {
            subscriber = try WebPushSubscriberKeys(p256dh: device.p256dh, auth: device.auth)
        } catch {
            return .notAllowed("its stored keys are not usable: \(error)")
        }
        let body = try WebPushEncryption.encrypt(plaintext, to: subscriber)
        let authorization = try await keys.keyPair().authorization(for: target.url, subject: subject(), now: now)

        var request = HTTPClientRequest(url: device.endpoint)
        request.method = .POST
        request.headers.add(name: "TTL", value: String(ttl))
        request.headers.add(name: "Topic", value: message.topic)
        request.headers.add(name: "Urgency", value: message.urgency.rawValue)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Authorization", value: authorization)
        request.body = .bytes(ByteBuffer(bytes: body))

        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        // The host as written and as checked (lower case, no trailing dot) both lead to the address checked.
        for host in [target.url.host, PushEndpointRule.host(of: target.url)].compactMap({ $0 }) {
            configuration.dnsOverride[host] = target.address
        }
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        let answer: (status: Int, retryAfter: String?, body: String)
        do {
            let response = try await client.execute(request, timeout: .milliseconds(timeout.inMilliseconds))
            let text = try await response.body.collect(upTo: 4096)
            answer = (Int(response.status.code), response.headers.first(name: "Retry-After"), String(buffer: text))
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        return Self.outcome(status: answer.status, retryAfter: answer.retryAfter, body: answer.body, now: now)
    }

    static func outcome(status: Int, retryAfter: String?, body: String, now: Date) -> Outcome {
        switch status {
        case 200...202: .accepted
        case 404, 410: .gone(status: status)
        case 429, 500...599: .later(status: status, notBefore: retryAfter.flatMap { notBefore($0, now: now) })
        default: .refused(status: status, body: String(body.prefix(300)))
        }
    }

    /// `Retry-After` as a moment (epoch ms): delay-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func notBefore(_ value: String, now: Date) -> Int64? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int64(text), seconds >= 0 { return now.epochMillis + min(seconds, 86_400) * 1000 }
        for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return max(date.epochMillis, now.epochMillis) }
        }
        return nil
    }
}
