import KithCore

/// One page of a pull (`PullResponse` on the wire), written from the stored rows: their fields
/// and stamps are JSON the server wrote itself, so they go out as they are. Decoding them into
/// records and encoding them again was nine tenths of a pull's CPU on the server (issue 18).
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
        output.append(contentsOf: #"{"changes":["#.utf8)
        for (index, change) in changes.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            change.writeChange(to: &output)
        }
        output.append(contentsOf: #"],"cursor":"#.utf8)
        JSONText.append(string: cursor, to: &output)
        if let gone {
            output.append(contentsOf: #","gone":["#.utf8)
            for (index, scope) in gone.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONText.append(string: scope, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        output.append(contentsOf: (hasMore ? #","hasMore":true}"# : #","hasMore":false}"#).utf8)
        return output
    }
}

extension StoredRecord {
    /// `ChangeDTO`'s JSON for this row: `deletedStamp` only when deleted, as its encoder omits nil.
    func writeChange(to output: inout [UInt8]) {
        output.append(contentsOf: #"{"deleted":"#.utf8)
        output.append(contentsOf: (deleted == nil ? "false" : "true").utf8)
        if let deleted {
            output.append(contentsOf: #","deletedStamp":"#.utf8)
            JSONText.append(string: deleted, to: &output)
        }
        output.append(contentsOf: #","entity":"#.utf8)
        JSONText.append(string: entity, to: &output)
        output.append(contentsOf: #","fields":"#.utf8)
        output.append(contentsOf: fields.utf8)
        output.append(contentsOf: #","id":"#.utf8)
        JSONText.append(string: id, to: &output)
        output.append(contentsOf: #","scope":"#.utf8)
        JSONText.append(string: scope, to: &output)
        output.append(contentsOf: #","seq":"#.utf8)
        JSONText.append(integer: seq, to: &output)
        output.append(contentsOf: #","stamps":"#.utf8)
        output.append(contentsOf: stamps.utf8)
        output.append(UInt8(ascii: "}"))
    }
}
