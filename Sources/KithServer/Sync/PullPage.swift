import KithCore

/// One page of a pull (`PullResponse` on the wire), written from the stored rows: their fields
/// and stamps are JSON the server wrote itself, so they go out as they are. Decoding them into
/// records and encoding them again was nine tenths of a pull's CPU on the server.
struct PullPage: Sendable {
    let changes: [StoredRecord]
    let cursor: String
    let hasMore: Bool
    /// Scopes the device's cursor held that the user left; nil when none.
    let gone: [String]?

    /// The page as `PullResponse`'s JSON (keys sorted, as `WireCoding`'s encoder writes them).
    var json: [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256 + changes.reduce(0) { $0 + 160 + $1.fields.utf8.count + $1.stamps.utf8.count })
        var page = JSONObjectWriter(&output)
        page.value("changes", changes, &output)
        page.string("cursor", cursor, &output)
        if let gone { page.value("gone", gone, &output) }
        page.bool("hasMore", hasMore, &output)
        page.end(&output)
        return output
    }
}

extension StoredRecord: JSONWritable {
    /// `ChangeDTO`'s JSON for this row: `deletedStamp` only when deleted, as its encoder omits nil.
    func writeJSON(to output: inout [UInt8]) {
        var change = JSONObjectWriter(&output)
        change.bool("deleted", deleted != nil, &output)
        change.string("deletedStamp", ifPresent: deleted, &output)
        change.string("entity", entity, &output)
        change.json("fields", text: fields, &output)
        change.string("id", id, &output)
        change.string("scope", scope, &output)
        change.integer("seq", seq, &output)
        change.json("stamps", text: stamps, &output)
        change.end(&output)
    }
}
