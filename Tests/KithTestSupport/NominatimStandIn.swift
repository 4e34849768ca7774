import Foundation
import Hummingbird
import Logging
import NIOCore

/// A Nominatim stand-in on a loopback port: answers `/search` as Nominatim does (coordinates as
/// strings, `[]` when it knows no such place) for the cities in `places`, and records every
/// request, so a test sees what was asked, with which User-Agent, and how often. `failing`
/// statuses are answered first, one per request (a geocoder that is down, then comes back).
public final class NominatimStandIn: Sendable {
    public struct Request: Sendable {
        /// The query's parameters, by name.
        public let query: [String: String]
        public let userAgent: String?
    }

    /// Cities it knows (lower case) with their country code and place.
    public static let places: [String: (country: String, latitude: String, longitude: String)] = [
        "paris": ("fr", "48.8566", "2.3522"), "lyon": ("fr", "45.7640", "4.8357"),
        "berlin": ("de", "52.5200", "13.4050"), "cupertino": ("us", "37.3318", "-122.0312"),
    ]

    private let recorded = Locked<[Request]>([])
    private let failing: Locked<[Int]>

    private init(failing: [Int]) { self.failing = Locked(failing) }

    /// Every request so far, in order.
    public var requests: [Request] { recorded.value }

    /// Runs `body` with the stand-in listening; its base URL is handed in.
    public static func run(
        failing: [Int] = [], _ body: @Sendable (NominatimStandIn, URL) async throws -> Void
    ) async throws {
        let standIn = NominatimStandIn(failing: failing)
        let router = Router()
        router.get("search") { request, _ -> Response in standIn.answer(request) }
        let port = Locked<Int?>(nil)
        // Stopped by cancelling its task, which Hummingbird logs as errors: only what is worse is said.
        var quiet = Logger(label: "nominatim-stand-in")
        quiet.logLevel = .critical
        let serving = Task { [quiet] in
            try await Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in port.value = channel.localAddress?.port }, logger: quiet
            ).runService()
        }
        defer { serving.cancel() }
        let deadline = Date().addingTimeInterval(10)
        while port.value == nil, Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        guard let bound = port.value else { throw StandInError("the Nominatim stand-in did not start") }
        try await body(standIn, URL(string: "http://127.0.0.1:\(bound)")!)
    }

    private func answer(_ request: Hummingbird.Request) -> Response {
        var query: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
        recorded.withLock { $0.append(Request(query: query, userAgent: request.headers[.userAgent])) }
        let failure = failing.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        if let failure { return Response(status: .init(code: failure)) }
        var body = "[]"
        if let city = query["city"]?.lowercased(), let place = Self.places[city],
            query["countrycodes"].map({ $0 == place.country }) ?? true
        {
            body = #"[{"place_id":1,"lat":"\#(place.latitude)","lon":"\#(place.longitude)","display_name":"\#(city)"}]"#
        }
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}

struct StandInError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
