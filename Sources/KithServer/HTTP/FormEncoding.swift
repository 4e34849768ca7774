import Foundation
import HummingbirdCore

/// `application/x-www-form-urlencoded`: the encoding of HTML form bodies and of every query
/// string. `+` stands for a space and is read before the percent escapes, so `Marie+Curie` and
/// `Marie%20Curie` mean the same while `%2B` stays a plus. Hummingbird's `queryParameters` leaves
/// `+` as it is, which is why the server reads queries through here (browsers, Laravel and every
/// form library write spaces as `+`).
enum FormEncoding {
    /// The name/value pairs of `text`, in order; a pair without `=` has an empty value and a pair
    /// without a name is skipped. An escape that is not valid UTF-8 leaves that part as sent.
    static func pairs(_ text: Substring) -> [(name: String, value: String)] {
        text.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.map(decode), !name.isEmpty else { return nil }
            return (name, parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// `value` as a form or query writes it: only ASCII letters, digits and `-._~` stay as they are
    /// (`.alphanumerics` would keep "é" unencoded), everything else is percent-escaped.
    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unescaped) ?? ""
    }

    private static let unescaped = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

/// The parameters of a request's query string, decoded as forms are (`FormEncoding`).
struct QueryParameters: Sendable {
    private let pairs: [(name: String, value: String)]

    init(_ uri: URI) {
        pairs = uri.query.map { FormEncoding.pairs($0[...]) } ?? []
    }

    /// The first value given for `name`, or nil when the query has none.
    func get(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }
}

extension URI {
    /// The query string's parameters with `+` read as a space.
    var formQuery: QueryParameters { QueryParameters(self) }
}
