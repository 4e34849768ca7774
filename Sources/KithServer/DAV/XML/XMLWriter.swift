import Foundation

/// The namespaces WebDAV answers use, each written with a fixed prefix declared once on the root.
enum DAVNamespace {
    static let dav = "DAV:"
    static let cardDAV = "urn:ietf:params:xml:ns:carddav"
    static let calDAV = "urn:ietf:params:xml:ns:caldav"
    /// Apple's calendar server extensions: `getctag`, which iOS and macOS still ask for.
    static let calendarServer = "http://calendarserver.org/ns/"

    static let prefixes: [(namespace: String, prefix: String)] = [
        (dav, "d"), (cardDAV, "card"), (calDAV, "cal"), (calendarServer, "cs"),
    ]
}

/// An element of an answer: a name, attributes, and either text or child elements.
struct XMLNode: Sendable {
    let name: XMLName
    var attributes: [(String, String)] = []
    var children: [XMLNode] = []
    var text: String?

    init(_ name: XMLName, text: String? = nil, attributes: [(String, String)] = [], children: [XMLNode] = []) {
        self.name = name
        self.text = text
        self.attributes = attributes
        self.children = children
    }

    static func dav(_ local: String, _ children: [XMLNode] = []) -> XMLNode {
        XMLNode(XMLName(DAVNamespace.dav, local), children: children)
    }

    static func dav(_ local: String, text: String) -> XMLNode { XMLNode(XMLName(DAVNamespace.dav, local), text: text) }

    static func href(_ path: String) -> XMLNode { .dav("href", text: path) }
}

/// Writes an answer's XML: the root declares the known namespaces; an element in any other
/// namespace (a property the client asked for that Kith does not know) declares its own.
enum XMLWriter {
    static func document(_ root: XMLNode) -> String {
        var out = #"<?xml version="1.0" encoding="utf-8"?>"# + "\n"
        write(root, into: &out, isRoot: true)
        out += "\n"
        return out
    }

    private static func write(_ node: XMLNode, into out: inout String, isRoot: Bool) {
        let tag: String
        var declarations = ""
        if let prefix = DAVNamespace.prefixes.first(where: { $0.namespace == node.name.namespace })?.prefix {
            tag = "\(prefix):\(node.name.local)"
        } else if node.name.namespace.isEmpty {
            tag = node.name.local
        } else {
            tag = "x:\(node.name.local)"
            declarations = " xmlns:x=\"\(escape(node.name.namespace))\""
        }
        out += "<" + tag
        if isRoot {
            for (namespace, prefix) in DAVNamespace.prefixes { out += " xmlns:\(prefix)=\"\(namespace)\"" }
        }
        out += declarations
        for (name, value) in node.attributes { out += " \(name)=\"\(escape(value))\"" }
        if node.children.isEmpty && (node.text ?? "").isEmpty {
            out += "/>"
            return
        }
        out += ">"
        if let text = node.text { out += escape(text, quotes: false) }
        for child in node.children { write(child, into: &out, isRoot: false) }
        out += "</\(tag)>"
    }

    /// Escapes text and attribute values; control characters XML 1.0 cannot carry are dropped.
    static func escape(_ text: String, quotes: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quotes: out += "&quot;"
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
