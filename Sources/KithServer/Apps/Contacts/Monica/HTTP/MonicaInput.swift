import Foundation
import Hummingbird
import KithCore

/// The parameters of an `/api` write, from a JSON body or a form body, normalized as Laravel's
/// global middleware does before validation: strings trimmed, empty strings made null.
struct MonicaInput: Sendable {
    let values: [String: JSONTree]

    init(_ values: [String: JSONTree]) { self.values = values.mapValues(Self.normalized) }

    subscript(name: String) -> JSONTree? { values[name] }

    static func read(_ request: Request) async throws -> MonicaInput {
        let buffer = try await request.body.collect(upTo: SyncLimits.largestBody)
        let data = Data(buffer: buffer)
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            return MonicaInput(form: String(decoding: data, as: UTF8.self))
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return MonicaInput([:]) }
        guard case .object(let object)? = JSONTree.parse(data) else { throw MonicaError.badJSON }
        return MonicaInput(object.dictionary)
    }

    /// `a=1&tags[]=x&tags[]=y&contacts[0]=3`: bracketed names gather into arrays, in order.
    init(form: String) {
        var values: [String: JSONTree] = [:]
        var arrays: [String: [JSONTree]] = [:]
        for (name, text) in FormEncoding.pairs(form[...]) {
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
