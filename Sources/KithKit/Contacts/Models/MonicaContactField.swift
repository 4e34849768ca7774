import Foundation

/// A way to reach a contact: an email, a phone number, a profile (`/contactfields`).
public struct MonicaContactField: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var content: String
    public var type: MonicaContactFieldType?
    public var contactID: Int?

    enum CodingKeys: String, CodingKey {
        case id, content, data, contact
        case type = "contact_field_type"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        // Monica answers `content`; its request bodies (and some exports) say `data`.
        content = fields.lenientString(.content) ?? fields.lenientString(.data) ?? ""
        type = fields.lenient(MonicaContactFieldType.self, .type)
        contactID = fields.lenient(MonicaContactSummary.self, .contact)?.id
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(content, forKey: .content)
        try fields.encodeIfPresent(type, forKey: .type)
        if let contactID { try fields.encode(["id": contactID], forKey: .contact) }
    }

    public enum Kind: Sendable, Equatable { case email, phone, other }

    /// Email and phone by the type's `type` (Monica's seeded types), else by its protocol.
    public var kind: Kind {
        let code = (type?.type ?? "").lowercased()
        let scheme = (type?.protocolPrefix ?? "").lowercased()
        if code == "email" || scheme.hasPrefix("mailto") { return .email }
        if code == "phone" || scheme.hasPrefix("tel") { return .phone }
        return .other
    }

    /// A link that acts on the field: `mailto:` for emails, `tel:` for phones, else the type's protocol.
    public var link: URL? {
        let text = content.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .email:
            return URL(string: "mailto:" + (text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? text))
        case .phone: return URL(string: "tel:" + text.filter { $0.isNumber || $0 == "+" })
        case .other:
            guard let scheme = type?.protocolPrefix, !scheme.isEmpty else { return nil }
            return URL(string: scheme + text)
        }
    }
}

/// What kind of contact field: Email, Phone, Facebook… (`/contactfieldtypes`).
public struct MonicaContactFieldType: Codable, Sendable, Equatable, Identifiable {
    public var id: Int
    public var name: String
    /// `email`, `phone`, or nil for the others.
    public var type: String?
    /// The link prefix, such as `mailto:` or `tel:`.
    public var protocolPrefix: String?

    enum CodingKeys: String, CodingKey {
        case id, name, type
        case protocolPrefix = "protocol"
    }

    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        id = try fields.requiredInt(.id)
        name = fields.lenientString(.name) ?? ""
        type = fields.lenientString(.type)
        protocolPrefix = fields.lenientString(.protocolPrefix)
    }
}
