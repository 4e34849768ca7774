import Foundation

extension PullResponse: JSONReadable {
    /// Reads a pull page's JSON without `JSONDecoder` (issue 18: decoding a page of 500 records
    /// through the generic coders was a tenth of a device's CPU during a sync). Reads what the
    /// `Decodable` conformance reads, and refuses what it refuses: a missing or mistyped member,
    /// an id that is not a UUID, a stamp that is not an HLC. Unknown members are ignored.
    public init(json: some Collection<UInt8>) throws {
        guard case .object(let page)? = JSONTree.parse(bytes: json) else { throw Self.unreadable("not a JSON object") }
        guard let changes = page["changes"]?.arrayValue else { throw Self.unreadable("no changes") }
        guard let cursor = page["cursor"]?.stringValue else { throw Self.unreadable("no cursor") }
        guard let hasMore = page["hasMore"]?.boolValue else { throw Self.unreadable("no hasMore") }
        var gone: [String]?
        if let member = page["gone"], !member.isNull {
            guard let scopes = member.arrayValue?.compactMap(\.stringValue), scopes.count == member.arrayValue?.count else {
                throw Self.unreadable("gone is not a list of scopes")
            }
            gone = scopes
        }
        self.init(changes: try changes.map(ChangeDTO.init(tree:)), cursor: cursor, hasMore: hasMore, gone: gone)
    }

    static func unreadable(_ why: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "a pull page: \(why)"))
    }
}

extension ChangeDTO {
    /// One change of a pull page, from its parsed JSON (see `PullResponse.init(json:)`).
    init(tree: JSONTree) throws {
        guard case .object(let change) = tree,
            let entity = change["entity"]?.stringValue,
            let id = change["id"]?.stringValue.flatMap(UUID.init(uuidString:)),
            let scope = change["scope"]?.stringValue,
            let fields = change["fields"]?.objectValue,
            let stampTexts = change["stamps"]?.objectValue,
            let deleted = change["deleted"]?.boolValue,
            let seq = change["seq"]?.intValue
        else { throw PullResponse.unreadable("a change lacks a member or has one of the wrong type") }
        var stamps: [String: HLC] = [:]
        for (field, text) in stampTexts.members {
            guard let stamp = text.stringValue.flatMap(HLC.init) else { throw PullResponse.unreadable("a bad stamp of \(field)") }
            stamps[field] = stamp
        }
        var record = SyncRecord(entity: entity, id: id, scope: scope)
        record.fields = fields.dictionary
        record.stamps = stamps
        if let member = change["deletedStamp"], !member.isNull {
            guard let stamp = member.stringValue.flatMap(HLC.init) else { throw PullResponse.unreadable("a bad deletedStamp") }
            record.deleted = stamp
        }
        self.init(record: record, seq: seq)
        self.deleted = deleted
    }
}
