import Foundation

extension PullResponse: JSONReadable {
    /// Reads a pull page's JSON without `JSONDecoder` (decoding a page of 500 records
    /// through the generic coders was a tenth of a device's CPU during a sync), and without a
    /// `JSONTree` of the page either: the page and its changes are read member by member, and only
    /// field values become trees (building and dropping the page's tree was a tenth of a first
    /// pull). Reads what the `Decodable` conformance reads, and refuses what it refuses: a missing
    /// or mistyped member, an id that is not a UUID, a stamp that is not an HLC. Unknown members are
    /// ignored; a member given twice counts as the first, as with the decoder.
    public init(json: some Collection<UInt8>) throws {
        var reader = JSONText.Reader(bytes: Array(json))
        var changes: [ChangeDTO]?
        var cursor: String?
        var hasMore: Bool?
        var gone: [String]?
        try reader.members(depth: 0) { reader, key in
            switch key {
            case "changes": changes = try reader.changes()
            case "cursor": cursor = reader.value(depth: 1)?.stringValue
            case "hasMore": hasMore = reader.value(depth: 1)?.boolValue
            case "gone":
                switch reader.value(depth: 1) {
                case .null?: gone = nil
                case .array(let items)?:
                    let scopes = items.compactMap(\.stringValue)
                    guard scopes.count == items.count else { throw Self.unreadable("gone is not a list of scopes") }
                    gone = scopes
                default: throw Self.unreadable("gone is not a list of scopes")
                }
            default: guard reader.value(depth: 1) != nil else { throw Self.unreadable("not JSON") }
            }
        }
        guard reader.atEnd else { throw Self.unreadable("not JSON") }
        guard let changes else { throw Self.unreadable("no changes") }
        guard let cursor else { throw Self.unreadable("no cursor") }
        guard let hasMore else { throw Self.unreadable("no hasMore") }
        self.init(changes: changes, cursor: cursor, hasMore: hasMore, gone: gone)
    }

    static func unreadable(_ why: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "a pull page: \(why)"))
    }
}

extension JSONText.Reader {
    /// Calls `member` with each key of the object that comes next, the reader at its value, which
    /// `member` must read whole. A key given again is skipped: the decoder keeps the first.
    fileprivate mutating func members(depth: Int, _ member: (inout Self, String) throws -> Void) throws {
        guard depth < Self.maxDepth, take(UInt8(ascii: "{")) else { throw PullResponse.unreadable("not an object") }
        if take(UInt8(ascii: "}")) { return }
        var seen: [String] = []
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")) else { throw PullResponse.unreadable("not JSON") }
            if seen.contains(key) {
                guard value(depth: depth + 1) != nil else { throw PullResponse.unreadable("not JSON") }
                continue
            }
            seen.append(key)
            try member(&self, key)
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { throw PullResponse.unreadable("not JSON") }
    }

    /// A page's `changes`: a list of change objects.
    fileprivate mutating func changes() throws -> [ChangeDTO] {
        guard take(UInt8(ascii: "[")) else { throw PullResponse.unreadable("no changes") }
        var changes: [ChangeDTO] = []
        if take(UInt8(ascii: "]")) { return changes }
        repeat { changes.append(try change()) } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { throw PullResponse.unreadable("not JSON") }
        return changes
    }

    private mutating func change() throws -> ChangeDTO {
        var entity: String?
        var id: UUID?
        var scope: String?
        var fields: [String: JSONTree]?
        var stamps: [String: HLC]?
        var deleted: Bool?
        var seq: Int64?
        var deletedStamp: HLC?
        try members(depth: 2) { reader, key in
            switch key {
            case "entity": entity = reader.value(depth: 3)?.stringValue
            case "id": id = reader.value(depth: 3)?.stringValue.flatMap(UUID.init(text:))
            case "scope": scope = reader.value(depth: 3)?.stringValue
            case "deleted": deleted = reader.value(depth: 3)?.boolValue
            case "seq": seq = reader.value(depth: 3)?.intValue
            case "fields":
                var read: [String: JSONTree] = [:]
                try reader.members(depth: 3) { reader, field in
                    guard let value = reader.value(depth: 4) else { throw PullResponse.unreadable("not JSON") }
                    read[field] = value
                }
                fields = read
            case "stamps":
                var read: [String: HLC] = [:]
                try reader.members(depth: 3) { reader, field in
                    guard let stamp = reader.string().flatMap(HLC.init) else { throw PullResponse.unreadable("a bad stamp of \(field)") }
                    read[field] = stamp
                }
                stamps = read
            case "deletedStamp":
                switch reader.value(depth: 3) {
                case .null?: deletedStamp = nil
                case .string(let text)?:
                    guard let stamp = HLC(text) else { throw PullResponse.unreadable("a bad deletedStamp") }
                    deletedStamp = stamp
                default: throw PullResponse.unreadable("a bad deletedStamp")
                }
            default: guard reader.value(depth: 3) != nil else { throw PullResponse.unreadable("not JSON") }
            }
        }
        guard let entity, let id, let scope, let fields, let stamps, let deleted, let seq else {
            throw PullResponse.unreadable("a change lacks a member or has one of the wrong type")
        }
        var record = SyncRecord(entity: entity, id: id, scope: scope)
        record.fields = fields
        record.stamps = stamps
        record.deleted = deletedStamp
        var change = ChangeDTO(record: record, seq: seq)
        change.deleted = deleted
        return change
    }
}
