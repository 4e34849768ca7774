import Foundation

/// An element of a WebDAV body, with its namespace resolved: `<D:prop xmlns:D="DAV:">` is
/// `XMLName("DAV:", "prop")` whatever prefix the client chose. Text is kept only where WebDAV
/// reads it (an `href`, a `sync-token`, a `limit`'s number, a filter's match text).
struct DAVXMLElement: Sendable, Equatable {
    let name: XMLName
    var attributes: [String: String] = [:]
    var children: [DAVXMLElement] = []
    var text: String = ""

    func child(_ name: XMLName) -> DAVXMLElement? { children.first { $0.name == name } }

    func children(_ name: XMLName) -> [DAVXMLElement] { children.filter { $0.name == name } }

    /// The text of the element and everything inside it, trimmed.
    var trimmedText: String {
        (text + children.map(\.trimmedText).joined()).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A namespaced name: the namespace URI and the local name.
struct XMLName: Sendable, Hashable, CustomStringConvertible {
    let namespace: String
    let local: String

    init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    var description: String { "{\(namespace)}\(local)" }
}
