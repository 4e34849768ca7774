import Foundation
import KithCore
import Testing

@testable import KithServer

@Suite("Pull pages written from stored rows")
struct PullPageTests {
    /// The hand-written page must decode as the `PullResponse` the records make, whatever the
    /// fields hold (escapes, Unicode, numbers, nulls) and whether a record is deleted.
    @Test func aPageDecodesAsThePullResponseOfItsRecords() throws {
        var live = SyncRecord(entity: "outreach.contact", id: UUID(), scope: "user:abc")
        live.fields = [
            "firstName": "Zoë \"Z\" \\ \n\t\u{01}", "count": .int(-9_223_372_036_854_775_808), "ratio": .double(0.1),
            "done": true, "comment": .null,
        ]
        live.stamps = ["firstName": HLC(wallMillis: 1_700_000_000_000, counter: 3, node: "n1"), "count": HLC(wallMillis: 5, counter: 0, node: "n2")]
        var deleted = SyncRecord(entity: "outreach.year", id: UUID(), scope: "family:f")
        deleted.deleted = HLC(wallMillis: 1_700_000_000_001, counter: 0, node: "n3")
        let rows = [(live, Int64(41)), (deleted, Int64(42))].map { record, seq in
            StoredRecord(
                id: record.id.lowercased, entity: record.entity, scope: record.scope,
                fields: JSONTree.object(JSONObject(record.fields.sorted { $0.key < $1.key })).text,
                stamps: JSONTree.object(JSONObject(record.stamps.map { ($0.key, .string($0.value.description)) })).text,
                deleted: record.deleted?.description, seq: seq)
        }
        for gone in [nil, ["family:old", "family:\"odd\""]] {
            let page = PullPage(changes: rows, cursor: "c\"ursor", hasMore: gone == nil, gone: gone)
            let decoded = try WireCoding.decoder().decode(PullResponse.self, from: Data(page.json))
            #expect(decoded.changes == [ChangeDTO(record: live, seq: 41), ChangeDTO(record: deleted, seq: 42)])
            #expect(decoded.cursor == "c\"ursor" && decoded.hasMore == (gone == nil) && decoded.gone == gone)
        }
    }
}
