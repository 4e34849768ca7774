import Foundation
import KithCore
import KithKit
import Testing

/// Every failure has a sentence for a person and says whether trying again can help.
@Suite("KithError")
struct KithErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let error: KithError
        let message: String
        let retryable: Bool
        var testDescription: String { "\(error)" }
    }

    static let cases: [Case] = [
        Case(error: .offline, message: "Cannot connect. Check your internet and try again.", retryable: true),
        Case(error: .timeout, message: "The server took too long to answer. Try again.", retryable: true),
        Case(error: .sessionExpired, message: "Your session expired. Please sign in again.", retryable: false),
        Case(error: .notSignedIn, message: "You are not signed in.", retryable: false),
        Case(
            error: .server(status: 429, APIErrorDetail(.tooManyAttempts, "Too many failed sign-in attempts. Try again in 15 minutes.")),
            message: "Too many failed sign-in attempts. Try again in 15 minutes.", retryable: true),
        Case(
            error: .server(status: 500, APIErrorDetail(.internalError, "Something went wrong on the server. Try again.")),
            message: "The server is having trouble. Please try again.", retryable: true),
        Case(
            error: .server(status: 503, APIErrorDetail(code: "http_503", message: "The server answered 503.")),
            message: "The server is having trouble. Please try again.", retryable: true),
        Case(
            error: .server(status: 422, APIErrorDetail(.weakPassword, "Use at least 8 characters for your password.", field: "password")),
            message: "Use at least 8 characters for your password.", retryable: false),
        Case(
            error: .server(status: 401, APIErrorDetail(.invalidCredentials, "The email or password is incorrect.")),
            message: "The email or password is incorrect.", retryable: false),
        Case(
            error: .invalidResponse("cannot read UserDTO"), message: "The server sent an answer this app does not understand.",
            retryable: false),
        Case(error: .storage("disk full"), message: "Could not save on this device: disk full", retryable: false),
    ]

    @Test("message and retryability", arguments: cases)
    func messageAndRetry(_ example: Case) {
        #expect(example.error.userMessage == example.message)
        #expect(example.error.isRetryable == example.retryable)
        #expect(example.error.localizedDescription == example.message, "LocalizedError shows the same sentence")
    }

    @Test("the server's code and field are exposed for forms")
    func codeAndField() {
        let error = KithError.server(status: 422, APIErrorDetail(.invalidEmail, "Enter a valid email.", field: "email"))
        #expect(error.code == .invalidEmail)
        #expect(error.field == "email")
        let unknown = KithError.server(status: 418, APIErrorDetail(code: "teapot", message: "short and stout"))
        #expect(unknown.code == nil, "an unknown code is not guessed")
        #expect(unknown.userMessage == "short and stout")
        #expect(KithError.offline.code == nil)
        #expect(KithError.offline.field == nil)
    }
}
