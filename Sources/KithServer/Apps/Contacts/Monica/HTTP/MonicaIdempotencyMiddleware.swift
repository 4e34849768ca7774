import Crypto
import Foundation
import Hummingbird
import KithCore
import NIOCore

/// `Idempotency-Key` on `/api` writes (the IETF httpapi draft's header): a change sent again with
/// the same key, because its answer was lost or a button was pressed twice, is answered as the
/// first time and made once. Keys are per account, in the shared write-key table
/// (`MonicaWriteKeyRepository` over `WriteKeys`):
///
/// - a POST, PUT, PATCH or DELETE with a key nobody holds records it as in flight, then runs;
///   an answer below 500 is kept with the key, a failure (thrown, or 5xx) lets the key go, so
///   the same request can be tried again with it;
/// - the same key again, for the same request (method, path and query, body): the kept status,
///   body and `ETag`, with `Idempotent-Replayed: true`, and nothing is written;
/// - while the first is still running: 409, code 44;
/// - for another request: 422, code 32; a key that is not 1 to 128 printable ASCII
///   characters: 400, code 41.
///
/// Without the header a request runs as it always did. Runs after authentication (keys are the
/// account's) and the rate limit (a replay is a request too).
struct MonicaIdempotencyMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let keys: MonicaWriteKeyRepository
    let clock: Clock

    static let inFlight = MonicaError(
        .conflict, code: 44, message: "This change is still being made. Wait a moment, then try again.")
    static let malformedKey = MonicaError(
        .badRequest, code: 41,
        message: .string(
            "The Idempotency-Key header must be one value of 1 to \(WriteKey.maximumLength) printable ASCII characters (a UUID will do)."
        ))

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let sent = request.headers[values: .idempotencyKey]
        guard !sent.isEmpty, [.post, .put, .patch, .delete].contains(request.method) else {
            return try await next(request, context)
        }
        guard sent.count == 1 else { throw Self.malformedKey }
        var request = request
        let body = try await request.body.collect(upTo: MonicaUploads.bodyLimit(for: request))
        request.body = RequestBody(buffer: body)
        let key = try Self.key(sent[0], userID: try context.requireUser().id.lowercased, request: request, body: body)
        let claim: MonicaWriteKeyRepository.Claim
        do {
            claim = try await keys.claim(key, now: clock.nowMillis)
        } catch let error as AppError where error.status == .unprocessableContent {
            throw MonicaError.invalid(error.detail.message)
        }
        switch claim {
        case .answered(let text): return try KeptAnswer(text: text).replay
        case .inFlight: throw Self.inFlight
        case .claimed: break
        }
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            await release(key, context)
            throw error
        }
        guard response.status.code < 500 else {
            await release(key, context)
            return response
        }
        let kept = try await KeptAnswer(response)
        try await keys.answer(key, with: kept.text)
        return kept.response
    }

    /// The key the request brings, naming the request it was used for.
    private static func key(_ text: String, userID: String, request: Request, body: ByteBuffer) throws -> WriteKey {
        let target = request.uri.query.map { request.uri.path + "?" + $0 } ?? request.uri.path
        do {
            guard let key = try WriteKey(text, userID: userID, request: requestName(request.method, target, body: body))
            else { throw malformedKey }
            return key
        } catch is AppError {
            throw malformedKey
        }
    }

    /// What a key was used for: the method, the path and query, and a digest of the body.
    static func requestName(_ method: HTTPRequest.Method, _ target: String, body: ByteBuffer) -> String {
        "\(method.rawValue) \(target) \(Data(SHA256.hash(data: Data(buffer: body))).base64EncodedString())"
    }

    /// A failed change lets its key go; if even that fails, the key stays in flight until it
    /// expires, and the request's own error is still the one answered.
    private func release(_ key: WriteKey, _ context: Context) async {
        do {
            try await keys.release(key)
        } catch {
            context.logger.error("could not release write key after a failed change: \(String(reflecting: error))")
        }
    }
}

/// An answer kept with its key: status, `ETag` and body, as JSON text
/// (`{"status":201,"etag":"\"12-1700000000000\"","body":"{…}"}`).
private struct KeptAnswer {
    let status: HTTPResponse.Status
    let tag: String?
    let body: ByteBuffer

    /// The answer the handler gave, read whole (it is sent as read).
    init(_ response: Response) async throws {
        let collector = BodyCollector()
        try await response.body.write(collector)
        status = response.status
        tag = response.headers[.eTag]
        body = collector.buffer
    }

    init(text: String) throws {
        guard let kept = JSONTree.parse(Data(text.utf8)), let code = kept["status"]?.intValue,
            let body = kept["body"]?.stringValue
        else { throw MonicaStorageError("a kept answer is not readable: \(text.prefix(200))") }
        status = HTTPResponse.Status(code: Int(code))
        tag = kept["etag"]?.stringValue
        self.body = ByteBuffer(string: body)
    }

    var text: String {
        let tree: JSONTree = [
            "status": .int(Int64(status.code)), "etag": .nullable(tag), "body": .string(String(buffer: body)),
        ]
        return String(decoding: tree.serialized(), as: UTF8.self)
    }

    var response: Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let tag { headers[.eTag] = tag }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// The first answer again, marked as such.
    var replay: Response {
        var answer = response
        answer.headers[.idempotentReplayed] = "true"
        return answer
    }
}

/// Reads a response body into one buffer.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ part: ByteBuffer) async throws {
        var part = part
        buffer.writeBuffer(&part)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
