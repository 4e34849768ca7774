import Foundation
import KithCore
import KithKit
import Testing

/// Every error KithKit throws is a `UserFacingError`: an app catches them all in one place and
/// reads a sentence, a kind and whether a retry can help, whichever server failed.
@Suite("UserFacingError")
struct UserFacingErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let error: any UserFacingError
        let kind: ErrorKind
        let identifier: String
        var testDescription: String { "\(error)" }
    }

    static let cases: [Case] = [
        Case(error: KithError.offline, kind: .unreachable, identifier: "offline"),
        Case(error: KithError.timeout, kind: .unreachable, identifier: "timeout"),
        Case(error: KithError.sessionExpired, kind: .signedOut, identifier: "session_expired"),
        Case(error: KithError.notSignedIn, kind: .signedOut, identifier: "not_signed_in"),
        Case(
            error: KithError.server(
                status: 401, APIErrorDetail(.invalidCredentials, "The email or password is incorrect.")),
            kind: .invalid, identifier: "invalid_credentials"),
        Case(
            error: KithError.server(status: 422, APIErrorDetail(.weakPassword, "Too short.", field: "password")),
            kind: .invalid, identifier: "weak_password"),
        Case(
            error: KithError.server(status: 429, APIErrorDetail(.tooManyAttempts, "Wait.")), kind: .rateLimited,
            identifier: "too_many_attempts"),
        Case(
            error: KithError.server(status: 503, APIErrorDetail(code: "http_503", message: "Down.")),
            kind: .serverTrouble, identifier: "http_503"),
        Case(
            error: KithError.invalid(APIErrorDetail(code: "not_found", message: "No such year.")), kind: .notFound,
            identifier: "not_found"),
        Case(error: KithError.storage("disk full"), kind: .storage, identifier: "storage"),
        Case(error: KithError.invalidResponse("?"), kind: .invalidResponse, identifier: "invalid_response"),
        Case(error: MonicaClientError.offline, kind: .unreachable, identifier: "offline"),
        Case(error: MonicaClientError.timeout, kind: .unreachable, identifier: "timeout"),
        Case(error: MonicaClientError.signedOut, kind: .signedOut, identifier: "signed_out"),
        Case(error: MonicaClientError.notConnected, kind: .signedOut, identifier: "not_connected"),
        Case(error: MonicaClientError.invalidToken, kind: .invalid, identifier: "invalid_token"),
        Case(error: MonicaClientError.rateLimited(retryAfter: 30), kind: .rateLimited, identifier: "rate_limited"),
        Case(error: MonicaClientError.serverTrouble(status: 502), kind: .serverTrouble, identifier: "server_trouble"),
        Case(error: MonicaClientError.notFound, kind: .notFound, identifier: "not_found"),
        Case(
            error: MonicaClientError.rejected(status: 422, messages: ["The city is too long."]), kind: .invalid,
            identifier: "rejected"),
        Case(error: MonicaClientError.invalid("Enter your API token."), kind: .invalid, identifier: "invalid"),
        Case(error: MonicaClientError.storage("disk full"), kind: .storage, identifier: "storage"),
        Case(error: GeocodingError.notConfigured, kind: .invalid, identifier: "no_geocoder"),
        Case(error: GeocodingError.notFound, kind: .notFound, identifier: "not_on_map"),
        Case(error: GeocodingError.unavailable("status 503"), kind: .unreachable, identifier: "geocoder_unavailable"),
    ]

    @Test("kind, identifier, and a retry only where it can help", arguments: cases)
    func kindAndIdentifier(_ example: Case) {
        #expect(example.error.kind == example.kind)
        #expect(example.error.identifier == example.identifier)
        #expect(example.error.isRetryable == example.kind.isRetryable)
        #expect(example.error.localizedDescription == example.error.userMessage)
    }

    @Test("the same failure reads the same from either server: offline is offline")
    func offlineEverywhere() {
        let kith: any UserFacingError = KithError.offline
        let monica: any UserFacingError = MonicaClientError.offline
        #expect(kith.userMessage == monica.userMessage)
        #expect(kith.kind == monica.kind && kith.isRetryable && monica.isRetryable)
        #expect(
            MonicaClientError.serverTrouble(status: 500).userMessage == "Monica is having trouble. Please try again.")
    }

    @Test("one catch handles the Kith client's, the Monica client's and the geocoder's errors")
    func oneCatch() async {
        let offlineTransport = ScriptedOffline()
        let failures: [@Sendable () async throws -> Void] = [
            {
                _ = try await KithClient(
                    serverURL: URL(string: "http://127.0.0.1:1")!, store: InMemorySessionStore(),
                    transport: offlineTransport
                ).me()
            },
            {
                _ = try await MonicaClient(
                    server: try MonicaServerAddress("https://monica.example"), token: "t", transport: offlineTransport
                ).me()
            },
            { _ = try await Directions.to(PostalAddress(city: "Paris"), contactName: "Ada", geocoder: nil) },
            { _ = try MonicaServerAddress("http://monica.example") },
        ]
        var seen: [(ErrorKind, String)] = []
        for failure in failures {
            do {
                try await failure()
                Issue.record("expected a failure")
            } catch let error as any UserFacingError {
                seen.append((error.kind, error.identifier))
            } catch {
                Issue.record("not a UserFacingError: \(error)")
            }
        }
        #expect(seen.map(\.0) == [.signedOut, .unreachable, .invalid, .invalid])
        #expect(seen.map(\.1) == ["not_signed_in", "offline", "no_geocoder", "insecure_address"])
    }
}

private struct ScriptedOffline: HTTPTransport {
    func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse { throw KithError.offline }
}
