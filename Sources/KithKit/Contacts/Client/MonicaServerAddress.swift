import Foundation
import KithCore

/// Where a Monica API lives, checked: `https://…/api` (the `/api` is added when missing, so
/// "https://monica.example" and "https://monica.example/api" are the same server). Plain HTTP is
/// refused except on this machine: a token must never cross a network in clear.
public struct MonicaServerAddress: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The API's root, ending in `/api` without a slash after it.
    public let apiURL: URL

    /// Monica's own cloud service.
    public static let cloud = try! MonicaServerAddress("https://app.monicahq.com/api")

    public init(_ text: String) throws {
        var text = text.trimmedWhitespace
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty,
            url.query == nil, url.fragment == nil
        else { throw MonicaClientError.invalidAddress(text) }
        switch scheme {
        case "https": break
        case "http" where Self.isLoopback(host): break
        case "http": throw MonicaClientError.insecureAddress
        default: throw MonicaClientError.invalidAddress(text)
        }
        apiURL = url.path.hasSuffix("/api") ? url : url.appendingPathComponent("api")
    }

    public init(_ url: URL) throws { try self.init(url.absoluteString) }

    public var description: String { apiURL.absoluteString }

    /// The URL of `path` (such as "contacts/12") under the API root, with `query` in that order.
    func url(_ path: String, _ query: [(String, String)] = []) -> URL {
        var components = URLComponents(url: apiURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        // `+` in a query means a space to Monica's PHP: a phone number's must stay a plus.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url!
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host.hasPrefix("127.")
    }
}

/// What a device keeps to stay connected to a Monica server: its address, the API token, and who
/// the token belongs to (so the cache of one user is never shown to another).
public struct MonicaCredentials: Codable, Sendable, Equatable {
    public var server: MonicaServerAddress
    public var token: String
    public var user: MonicaUser

    public init(server: MonicaServerAddress, token: String, user: MonicaUser) {
        self.server = server
        self.token = token
        self.user = user
    }

    /// The token as Settings shows it: its first and last four characters.
    public var maskedToken: String {
        token.count <= 12 ? String(repeating: "•", count: 8) : "\(token.prefix(4))…\(token.suffix(4))"
    }
}
