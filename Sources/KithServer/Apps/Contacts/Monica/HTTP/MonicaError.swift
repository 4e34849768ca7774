import Hummingbird
import KithCore
import NIOCore
import NIOHTTP1

/// An `/api` answer that is not a success, in Monica's own shapes: `{"error":{"message","error_code"}}`
/// for its coded errors, `{"message":…}` for what Laravel itself answers (401, unknown route).
struct MonicaError: Error, Sendable {
    let status: HTTPResponse.Status
    let body: JSONTree
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, code: Int64, message: JSONTree, headers: HTTPFields = [:]) {
        self.status = status
        self.body = ["error": ["message": message, "error_code": .int(code)]]
        self.headers = headers
    }

    init(_ status: HTTPResponse.Status, plain message: String) {
        self.status = status
        self.body = ["message": .string(message)]
    }

    static let notFound = MonicaError(.notFound, code: 31, message: "The resource has not been found")
    static let limitTooBig = MonicaError(.badRequest, code: 30, message: "The limit parameter is too big")
    /// Kith's own, in the family of code 30: Monica computed any page, up to an SQL error.
    static let pageTooBig = MonicaError(.badRequest, code: 30, message: "The page parameter is too big")
    static let invalidSort = MonicaError(.badRequest, code: 39, message: "The sorting criteria is invalid")
    static let badJSON = MonicaError(.badRequest, code: 37, message: "Problems parsing JSON")
    static let notAuthorized = MonicaError(.unauthorized, code: 42, message: "Not authorized")
    static let unauthenticated = MonicaError(.unauthorized, plain: "Unauthenticated.")

    /// Validation failures: 422, code 32, every message in rule order.
    static func invalid(_ messages: [String]) -> MonicaError {
        MonicaError(.unprocessableContent, code: 32, message: .array(messages.map(JSONTree.string)))
    }

    static func invalid(_ message: String) -> MonicaError { invalid([message]) }

    static func tooManyAttempts(headers: HTTPFields) -> MonicaError {
        MonicaError(
            .tooManyRequests, code: 34, message: "Too many attempts, please slow down the request", headers: headers)
    }

    var response: Response { MonicaResponse.make(body, status: status, headers: headers) }

    /// Every other error a `/api` request can end with, as Laravel would answer it.
    static func from(_ error: any Error) -> MonicaError? {
        switch error {
        case let error as MonicaError: return error
        case let error as HTTPError:
            switch error.status {
            case .notFound: return MonicaError(.notFound, plain: "Not Found")
            case .methodNotAllowed:
                // Laravel's MethodNotAllowedHttpException, with the methods the route takes.
                var answer = MonicaError(.methodNotAllowed, plain: error.body ?? "Method Not Allowed")
                answer.headers = error.headers
                return answer
            case .contentTooLarge: return MonicaError(.contentTooLarge, plain: "Content Too Large")
            default: return MonicaError(error.status, plain: error.body ?? error.status.reasonPhrase)
            }
        case let error as AppError where error.status == .unauthorized: return .unauthenticated
        case let error as AppError where error.status == .contentTooLarge:
            return MonicaError(.contentTooLarge, plain: "Content Too Large")
        case let error as AppError where error.status.code < 500:
            var answer = MonicaError(error.status, plain: error.detail.message)
            answer.headers = error.headers
            return answer
        case is StorageFullError: return MonicaError(.serviceUnavailable, plain: AppError.storageFull.detail.message)
        case is NIOTooManyBytesError: return MonicaError(.contentTooLarge, plain: "Content Too Large")
        case is HTTPParserError: return MonicaError(.badRequest, plain: "Bad Request")
        default: return nil
        }
    }
}

extension MonicaError {
    /// The error's messages as one sentence (a DAV client shows it to the person).
    var sentence: String {
        let message = body["error"]?["message"] ?? body["message"]
        switch message {
        case .string(let text): return text
        case .array(let items): return items.compactMap(\.stringValue).joined(separator: " ")
        default: return status.reasonPhrase
        }
    }
}
