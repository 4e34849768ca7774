import Foundation
import Hummingbird

/// A 207 answer (RFC 4918 §13): one `<d:response>` per resource, its properties found (200) and
/// not found (404) in separate `propstat`s, or a status of its own (a member that is gone).
struct Multistatus {
    private(set) var responses: [XMLNode] = []
    var syncToken: String?

    /// A resource's properties as asked: `properties` are those it has, by name.
    mutating func add(href: String, asked: PropertyRequest, properties: [XMLName: XMLNode], listed: [XMLName]) {
        var found: [XMLNode] = []
        var missing: [XMLNode] = []
        switch asked {
        case .names:
            found = listed.filter { properties[$0] != nil }.map { XMLNode($0) }
        case .all(let include):
            found = listed.compactMap { properties[$0] }
            for name in include where !listed.contains(name) {
                if let value = properties[name] { found.append(value) } else { missing.append(XMLNode(name)) }
            }
        case .named(let names):
            for name in names {
                if let value = properties[name] { found.append(value) } else { missing.append(XMLNode(name)) }
            }
        }
        var children: [XMLNode] = [.href(href)]
        if !found.isEmpty || missing.isEmpty { children.append(Self.propstat(found, "200 OK")) }
        if !missing.isEmpty { children.append(Self.propstat(missing, "404 Not Found")) }
        responses.append(.dav("response", children))
    }

    /// A resource answered by status alone (RFC 6578: a member removed since the token).
    mutating func add(href: String, status: String) {
        responses.append(.dav("response", [.href(href), .dav("status", text: "HTTP/1.1 " + status)]))
    }

    /// PROPPATCH's answer: every property named, with one status.
    mutating func add(href: String, properties: [XMLName], status: String) {
        responses.append(.dav("response", [.href(href), Self.propstat(properties.map { XMLNode($0) }, status)]))
    }

    var response: Response {
        var children = responses
        if let syncToken { children.append(.dav("sync-token", text: syncToken)) }
        let body = XMLWriter.document(.dav("multistatus", children))
        return Response(
            status: .multiStatus, headers: [.contentType: "application/xml; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    private static func propstat(_ properties: [XMLNode], _ status: String) -> XMLNode {
        .dav("propstat", [.dav("prop", properties), .dav("status", text: "HTTP/1.1 " + status)])
    }
}

extension HTTPResponse.Status {
    static let multiStatus = HTTPResponse.Status(code: 207, reasonPhrase: "Multi-Status")
}
