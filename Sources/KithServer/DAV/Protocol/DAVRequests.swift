import Foundation

/// Which properties a PROPFIND or REPORT asks for (RFC 4918 §9.1).
enum PropertyRequest: Sendable, Equatable {
    /// Every property the resource has worth listing (and any named in `<include>`).
    case all(include: [XMLName])
    /// The names only, no values.
    case names
    case named([XMLName])

    /// `<d:prop>`, `<d:allprop>` or `<d:propname>` among `element`'s children; none is `allprop`
    /// (RFC 4918: an empty PROPFIND body means allprop).
    init(in element: DAVXMLElement?) {
        guard let element else {
            self = .all(include: [])
            return
        }
        if let prop = element.child(DAVName.prop) {
            self = .named(prop.children.map(\.name))
        } else if element.child(DAVName.propname) != nil {
            self = .names
        } else {
            self = .all(include: element.child(DAVName.include)?.children.map(\.name) ?? [])
        }
    }
}

/// A REPORT body, by its root element (RFC 6352 §8.6–8.7, RFC 4791 §7.8–7.9, RFC 6578 §3.2).
enum ReportRequest: Sendable {
    case multiget(properties: PropertyRequest, hrefs: [String])
    case query(properties: PropertyRequest, filter: DAVXMLElement?, limit: Int?)
    case syncCollection(properties: PropertyRequest, token: String, limit: Int?)

    init(_ root: DAVXMLElement) throws(DAVError) {
        let properties = PropertyRequest(in: root)
        switch root.name {
        case DAVName.addressbookMultiget, DAVName.calendarMultiget:
            self = .multiget(properties: properties, hrefs: root.children(DAVName.href).map(\.trimmedText))
        case DAVName.addressbookQuery, DAVName.calendarQuery:
            let limit = root.child(DAVName.limit)?.child(DAVName.nresults).flatMap { Int($0.trimmedText) }
            self = .query(
                properties: properties, filter: root.child(DAVName.filterCardDAV) ?? root.child(DAVName.filterCalDAV),
                limit: limit)
        case DAVName.syncCollection:
            // Level "1" or "infinite" (RFC 6578 §3.3): the same here, where no collection holds another.
            let limit = root.child(DAVName.limit)?.child(DAVName.nresults).flatMap { Int($0.trimmedText) }
            self = .syncCollection(
                properties: properties, token: root.child(DAVName.syncToken)?.trimmedText ?? "", limit: limit)
        default:
            throw DAVError(
                .forbidden, "The report \(root.name.local) is not supported here.",
                precondition: DAVName.supportedReport)
        }
    }

    var properties: PropertyRequest {
        switch self {
        case .multiget(let properties, _), .query(let properties, _, _), .syncCollection(let properties, _, _):
            properties
        }
    }
}

/// `Depth` (RFC 4918 §10.2): 0 or 1 here. `infinity` is answered as 1: Kith's collections hold
/// no collections, so the two list the same (RFC 4918 lets a server refuse infinity instead).
enum Depth: Sendable {
    case zero, one

    init(header: String?, default fallback: Depth) {
        switch header?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "0": self = .zero
        case "1", "infinity": self = .one
        default: self = fallback
        }
    }
}

/// The names of the elements Kith reads and writes.
enum DAVName {
    static func dav(_ local: String) -> XMLName { XMLName(DAVNamespace.dav, local) }
    static func card(_ local: String) -> XMLName { XMLName(DAVNamespace.cardDAV, local) }
    static func cal(_ local: String) -> XMLName { XMLName(DAVNamespace.calDAV, local) }

    static let prop = dav("prop")
    static let propname = dav("propname")
    static let include = dav("include")
    static let propfind = dav("propfind")
    static let href = dav("href")
    static let limit = dav("limit")
    static let nresults = dav("nresults")
    static let syncCollection = dav("sync-collection")
    static let syncToken = dav("sync-token")
    static let validSyncToken = dav("valid-sync-token")
    static let supportedReport = dav("supported-report")
    static let resourcetype = dav("resourcetype")
    static let getetag = dav("getetag")
    static let getcontenttype = dav("getcontenttype")
    static let getcontentlength = dav("getcontentlength")
    static let displayname = dav("displayname")

    static let addressbookMultiget = card("addressbook-multiget")
    static let addressbookQuery = card("addressbook-query")
    static let addressData = card("address-data")
    static let filterCardDAV = card("filter")
    static let noUIDConflict = card("no-uid-conflict")
    static let validAddressData = card("valid-address-data")
    static let maxResourceSizeCard = card("max-resource-size")

    static let calendarMultiget = cal("calendar-multiget")
    static let calendarQuery = cal("calendar-query")
    static let calendarData = cal("calendar-data")
    static let filterCalDAV = cal("filter")
    static let noUIDConflictCal = cal("no-uid-conflict")
    static let validCalendarData = cal("valid-calendar-data")
    static let supportedCalendarComponent = cal("supported-calendar-component")
    static let maxResourceSizeCal = cal("max-resource-size")
}
