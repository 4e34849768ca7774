import Foundation
import Hummingbird
import KithCore
import NIOCore

extension Request {
    /// Reads and decodes a JSON body, turning every way it can be wrong into a clear 400 or 413.
    mutating func decodeJSON<T: Decodable>(_ type: T.Type, context: AppRequestContext) async throws -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await collectBody(upTo: SyncLimits.largestBody)
        } catch is NIOTooManyBytesError {
            throw AppError.payloadTooLarge
        }
        guard buffer.readableBytes > 0 else {
            throw AppError(.badRequest, .badRequest, "The request needs a JSON body.")
        }
        // A body type that reads its own JSON does, when it can; what it cannot read goes to the
        // decoder, which reads it the same way or says what is wrong with it.
        if let readable = T.self as? any JSONReadable.Type,
            let body = try? readable.init(json: buffer.readableBytesView) as? T
        {
            return body
        }
        do {
            return try WireCoding.decoder().decode(T.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw AppError(.badRequest, Self.describe(error))
        } catch {
            throw AppError(.badRequest, .badRequest, "The body is not valid JSON.")
        }
    }

    private static func describe(_ error: DecodingError) -> APIErrorDetail {
        switch error {
        case .keyNotFound(let key, let context):
            let field = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            return APIErrorDetail(.badRequest, "The field \"\(field)\" is required.", field: field)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return APIErrorDetail(.badRequest, "The field \"\(field)\" must be a \(describe(type)).", field: field)
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            return APIErrorDetail(.badRequest, "The field \"\(field)\" has an invalid value.", field: field)
        default:
            return APIErrorDetail(.badRequest, "The body is not valid JSON.")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type, is Int64.Type, is Double.Type: "number"
        case is Bool.Type: "boolean"
        default: "\(type)"
        }
    }
}

extension AppError {
    static let payloadTooLarge = AppError(
        .contentTooLarge, .payloadTooLarge, "The request body is larger than the 1 MiB limit.")
}

/// Builds JSON answers with the wire's encoder.
enum JSONResponse {
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws
        -> Response
    {
        if let writable = value as? any JSONWritable {
            return make(bytes: writable.jsonBytes, status: status, headers: headers)
        }
        return make(bytes: try WireCoding.encoder().encode(value), status: status, headers: headers)
    }

    /// JSON text already written.
    static func make<Bytes: Sequence>(bytes: Bytes, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:])
        -> Response where Bytes.Element == UInt8
    {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
