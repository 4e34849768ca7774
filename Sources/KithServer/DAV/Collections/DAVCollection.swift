import Foundation
import Hummingbird

/// A collection a DAV client syncs (an address book, a task calendar), as an app provides it: its
/// members come from the app's data through `DAVCollectionSource`, and a client's write becomes
/// the app's own operations, under the app's rules.
protocol DAVCollection: DAVCollectionSource {
    /// The collection's path, ending in "/".
    var path: String { get }
    var displayName: String { get }
    /// Besides `DAV:collection`: `card:addressbook`, `cal:calendar`.
    var resourceType: XMLName { get }
    /// The members' media type, with its charset.
    var memberContentType: String { get }
    /// The property a REPORT returns a member's body in (`address-data`, `calendar-data`).
    var dataProperty: XMLName { get }
    /// The precondition a body Kith cannot read fails (`valid-address-data`, `valid-calendar-data`).
    var validDataPrecondition: XMLName { get }
    /// Properties of the collection beyond the common ones (supported data, components, limits).
    func collectionProperties() -> [XMLName: XMLNode]
    /// The largest member body a client may send, in bytes.
    var maximumMemberSize: Int { get }
    /// Whether a member a client wrote is served back as it wrote it until it changes elsewhere
    /// (an address book: the phone keeps its own card, byte for byte); else it is always
    /// served in Kith's own form (a calendar whose tasks carry the family's alarms).
    var servesClientBodies: Bool { get }

    /// The members' bodies, by name, in the form the request asks for.
    func bodies(of items: [DAVItem], format: DAVDataFormat) async throws -> [String: String]
    /// Whether the member's body meets a `card:filter` / `cal:filter` (RFC 6352 §10.5, 4791 §9.7).
    func matches(_ filter: DAVXMLElement, body: String) throws(DAVError) -> Bool
    /// Creates (no `existing`) or changes a member from a client's body; the object it shows,
    /// its UID and the lines Kith keeps verbatim. A refusal throws a `DAVError` with a sentence.
    func write(_ body: [UInt8], name: String, existing: DAVItem?, state: DAVCollectionState) async throws
        -> DAVWrite
    /// Deletes the member's object.
    func delete(_ item: DAVItem) async throws
}

/// What a client's write made.
struct DAVWrite: Sendable {
    let objectID: String
    let uid: String
    let extras: String
    /// The object in the collection's own form with the source's versions around the write, when
    /// the collection can tell them (`DAVItemStore.place`): then no comparison follows the write.
    var text: DAVWrittenText? = nil
}

/// The form of a member's body a request asks for: CardDAV's `address-data` may name vCard 4.0
/// (RFC 6352 §10.4); by default 3.0, which every phone reads.
enum DAVDataFormat: Sendable {
    case standard
    case vCard4

    /// From a REPORT's `address-data` element or a GET's `Accept`.
    init(dataElement: DAVXMLElement?, accept: String?) {
        if let version = dataElement?.attributes["version"] {
            self = version.trimmingCharacters(in: .whitespaces) == "4.0" ? .vCard4 : .standard
        } else if let accept, accept.lowercased().replacingOccurrences(of: " ", with: "").contains("version=4.0") {
            self = .vCard4
        } else {
            self = .standard
        }
    }
}
