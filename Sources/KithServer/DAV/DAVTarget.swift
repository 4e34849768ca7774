import Foundation

/// What a DAV path names, for the signed-in account. Another account's paths name nothing (404):
/// each account reaches only its own address book and its own family.
enum DAVTarget {
    case root
    case principal
    case addressBookHome([any DAVCollection])
    case calendarHome([any DAVCollection])
    case collection(any DAVCollection)
    case member(any DAVCollection, name: String)

    static func principalPath(_ user: AuthenticatedUser) -> String {
        "\(DAVServer.root)/principals/\(user.id.lowercased)/"
    }
    static func addressBookHomePath(_ user: AuthenticatedUser) -> String {
        "\(DAVServer.root)/addressbooks/\(user.id.lowercased)/"
    }
    static func calendarHomePath(_ user: AuthenticatedUser) -> String {
        "\(DAVServer.root)/calendars/\(user.id.lowercased)/"
    }

    /// The target at `path` (percent-encoded, as the request has it), nil for none.
    static func find(path rawPath: String, user: AuthenticatedUser, homes: DAVHomes) async throws -> DAVTarget? {
        guard let path = rawPath.removingPercentEncoding, !path.contains("\0") else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.first == String(DAVServer.root.dropFirst()) else { return nil }
        if parts.count == 1 { return .root }
        guard parts.count >= 3, parts[2].lowercased() == user.id.lowercased else { return nil }
        switch (parts[1], parts.count) {
        case ("principals", 3): return .principal
        case ("addressbooks", _):
            return try await within(parts, { .addressBookHome($0) }, try await homes.addressBooks(user))
        case ("calendars", _): return try await within(parts, { .calendarHome($0) }, try await homes.calendars(user))
        default: return nil
        }
    }

    private static func within(
        _ parts: [String], _ home: ([any DAVCollection]) -> DAVTarget, _ collections: [any DAVCollection]
    ) async throws -> DAVTarget? {
        if parts.count == 3 { return home(collections) }
        guard
            let collection = collections.first(where: {
                $0.path.split(separator: "/").last.map(String.init) == parts[3]
            })
        else { return nil }
        if parts.count == 4 { return .collection(collection) }
        guard parts.count == 5, isMemberName(parts[4]) else { return nil }
        return .member(collection, name: parts[4])
    }

    /// A member's name: one path segment a client chose (`<uuid>.vcf`), of printable characters.
    static func isMemberName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && name.utf8.count <= 255
            && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }

    /// A member's path, its name percent-encoded.
    static func memberPath(_ collection: any DAVCollection, _ name: String) -> String {
        collection.path + (name.addingPercentEncoding(withAllowedCharacters: .davSegment) ?? name)
    }

    /// The member name an href in a multiget names, if it is in `collection`.
    static func memberName(href: String, in collection: any DAVCollection) -> String? {
        var path = href
        // A full URL (some clients send one): its path.
        if let url = URL(string: href), url.scheme != nil { path = url.path(percentEncoded: true) }
        guard let decoded = path.removingPercentEncoding, let prefix = collection.path.removingPercentEncoding,
            decoded.hasPrefix(prefix)
        else { return nil }
        let name = String(decoded.dropFirst(prefix.count))
        return isMemberName(name) && !name.contains("/") ? name : nil
    }
}

extension CharacterSet {
    /// RFC 3986's unreserved characters and those a path segment may carry as they are.
    static let davSegment: CharacterSet = {
        CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")
    }()
}
