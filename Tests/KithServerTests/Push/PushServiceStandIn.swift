import Foundation
import KithCore
import KithTestSupport
import Testing

/// Checked once: without python3, http_ece and py_vapid the push tests must fail loudly.
let pushPythonProblem = PythonService.problem(importing: ["http_ece", "py_vapid"], install: "http-ece py-vapid")

/// Tests/support/push_service.py: fake devices' subscriptions and a push service on loopback that
/// checks every message with independent implementations (py-vapid, http_ece) and records it.
final class PushServiceStandIn: Sendable {
    /// What the service answers a device, in order; past the list, 201.
    struct Answer: Encodable {
        var status: Int
        var retryAfter: String?
    }

    /// One message as the service received, checked and decrypted it.
    struct Received: Decodable {
        var device: String
        /// What the service answered.
        var status: Int
        var ttl: String?
        var topic: String?
        var urgency: String?
        var contentEncoding: String?
        var contentType: String?
        var bytes: Int
        var claims: Claims?
        var payload: WebPushPayload?
        /// Why a check failed; nil when every check passed.
        var error: String?

        struct Claims: Decodable {
            var aud: String
            var exp: Int64
            var sub: String
        }
    }

    let service: PythonService
    let directory: URL
    /// Each device's subscription as its browser would give it (`PushSubscription.toJSON()`).
    let subscriptions: [String: WebPushSubscribeRequest]

    private init(service: PythonService, directory: URL, subscriptions: [String: WebPushSubscribeRequest]) {
        self.service = service
        self.directory = directory
        self.subscriptions = subscriptions
    }

    static func start(devices: [String], script: [String: [Answer]] = [:]) async throws -> PushServiceStandIn {
        if let problem = pushPythonProblem { throw TestFailure(problem) }
        let program = RepositoryPaths.testSupport.appendingPathComponent("push_service.py")
        guard FileManager.default.fileExists(atPath: program.path) else {
            throw TestFailure("missing \(program.path): the push tests need the stand-in push service")
        }
        let directory = try makeTemporaryDirectory("push-service")
        let answers = String(decoding: try JSONEncoder().encode(script), as: UTF8.self)
        let service = try await PythonService.start(
            [program.path, "--dir", directory.path, "--devices", devices.joined(separator: ","), "--script", answers],
            name: "push service")
        struct Keys: Decodable {
            var endpoint: String
            var p256dh: String
            var auth: String
        }
        let keys = try JSONDecoder().decode(
            [String: Keys].self, from: Data(contentsOf: directory.appendingPathComponent("devices.json")))
        return PushServiceStandIn(
            service: service, directory: directory,
            subscriptions: keys.mapValues {
                WebPushSubscribeRequest(endpoint: $0.endpoint, keys: .init(p256dh: $0.p256dh, auth: $0.auth))
            })
    }

    /// `device`'s subscription with the kinds and name to ask for.
    func subscription(_ device: String, kinds: [String]? = nil, name: String? = nil) throws -> WebPushSubscribeRequest {
        var request = try #require(subscriptions[device], "no device \(device)")
        request.kinds = kinds
        request.name = name
        return request
    }

    /// Every message received so far, in order.
    func received() throws -> [Received] {
        let file = directory.appendingPathComponent("messages.jsonl")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try WireCoding.decoder().decode(Received.self, from: Data($0.utf8))
        }
    }

    func received(by device: String) throws -> [Received] { try received().filter { $0.device == device } }

    func stop() {
        service.stop()
        if !service.errorText.isEmpty { print("push service stderr: \(service.errorText)") }
        try? FileManager.default.removeItem(at: directory)
    }
}
