import Foundation
import Hummingbird
import KithCore

/// The parameters of an `/api` write, from a JSON body, a form body or a multipart body,
/// normalized as Laravel's global middleware does before validation: strings trimmed, empty
/// strings made null. A multipart body's files are kept apart, by field name.
struct MonicaInput: Sendable {
    let values: [String: JSONTree]
    var files: [String: UploadedFile] = [:]

    init(_ values: [String: JSONTree]) { self.values = values.mapValues(Self.normalized) }

    subscript(name: String) -> JSONTree? { values[name] }

    static func read(_ request: Request) async throws -> MonicaInput {
        let buffer = try await request.body.collect(upTo: MonicaUploads.bodyLimit(for: request))
        let data = Data(buffer: buffer)
        let contentType = request.headers[.contentType] ?? ""
        if contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") {
            return MonicaInput(form: String(decoding: data, as: UTF8.self))
        }
        if contentType.lowercased().hasPrefix("multipart/form-data") {
            return try MonicaInput(multipart: data, contentType: contentType)
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return MonicaInput([:]) }
        guard case .object(let object)? = JSONTree.parse(data) else { throw MonicaError.badJSON }
        return MonicaInput(object.dictionary)
    }

    /// `a=1&tags[]=x&tags[]=y&contacts[0]=3`: bracketed names gather into arrays, in order.
    init(form: String) { self.init(fields: FormEncoding.pairs(form[...]).map { ($0.0, $0.1) }) }

    /// A `multipart/form-data` body: parts without a filename are fields (read as a form's),
    /// parts with one are files.
    init(multipart body: Data, contentType: String) throws {
        guard let boundary = MultipartFormData.boundary(fromContentType: contentType) else {
            throw MonicaError.invalid("The multipart body names no boundary in its Content-Type.")
        }
        let form: MultipartFormData
        do {
            form = try MultipartFormData(parsing: body, boundary: boundary)
        } catch {
            throw MonicaError.invalid("The multipart body cannot be read: \(error).")
        }
        var fields: [(String, String)] = []
        var files: [String: UploadedFile] = [:]
        for part in form.parts {
            if let filename = part.filename {
                // A browser's file input with no file chosen sends an empty filename and no bytes.
                guard !filename.isEmpty else { continue }
                files[part.name] = files[part.name] ?? UploadedFile(filename: filename, bytes: Data(part.body))
            } else {
                fields.append((part.name, String(decoding: part.body, as: UTF8.self)))
            }
        }
        self.init(fields: fields)
        self.files = files
    }

    private init(fields: [(String, String)]) {
        var values: [String: JSONTree] = [:]
        var arrays: [String: [JSONTree]] = [:]
        for (name, text) in fields {
            let value = JSONTree.string(text)
            if let bracket = name.firstIndex(of: "["), name.hasSuffix("]") {
                arrays[String(name[..<bracket]), default: []].append(value)
            } else {
                values[name] = value
            }
        }
        for (name, items) in arrays { values[name] = .array(items) }
        self.init(values)
    }

    private static func normalized(_ value: JSONTree) -> JSONTree {
        switch value {
        case .string(let text):
            let trimmed = text.trimmedWhitespace
            return trimmed.isEmpty ? .null : .string(trimmed)
        case .array(let items): return .array(items.map(normalized))
        default: return value
        }
    }
}
