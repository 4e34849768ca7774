import Foundation

/// A way to reach a contact: an email, a phone number, a profile (`/contactfields`).
public struct MonicaContactField: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var type: MonicaContactFieldType?
    /// The contact's id, from `"contact": {"id": 42, …}`.
    @Nested<MonicaObjectID> public var contactID: Int?
    /// Monica answers `content`; its request bodies (and some exports) say `data`.
    @Lenient var givenContent: String?
    @Lenient var data: String?

    enum CodingKeys: String, CodingKey {
        case id, data
        case type = "contact_field_type", contactID = "contact", givenContent = "content"
    }

    /// The email address, phone number or handle.
    public var content: String {
        get { givenContent ?? data ?? "" }
        set {
            givenContent = newValue
            data = nil
        }
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
public struct MonicaContactFieldType: LenientDecodable, Equatable, Identifiable {
    @Required public var id: Int
    @Lenient public var name: String
    /// `email`, `phone`, or nil for the others.
    @Lenient public var type: String?
    /// The link prefix, such as `mailto:` or `tel:`.
    @Lenient public var protocolPrefix: String?

    enum CodingKeys: String, CodingKey {
        case id, name, type
        case protocolPrefix = "protocol"
    }
}
