import Foundation
import KithCore
import Testing

/// A device reads pull pages with `PullResponse(json:)`; it must read exactly what the wire's
/// `Decodable` conformance reads, and refuse what it refuses.
@Suite("Pull pages read without JSONDecoder")
struct PullResponseJSONTests {
    static func page() throws -> PullResponse {
        var live = SyncRecord(entity: "outreach.contact", id: UUID(), scope: "user:ada")
        live.fields = [
            "firstName": "Zoë \"Z\" 😀", "age": 41, "weight": 72.5, "vip": true, "note": nil,
            "tags": ["a", 1, ["nested": false]],
        ]
        let stamp = try #require(HLC("000001700000000-00003-phone"))
        live.stamps = Dictionary(uniqueKeysWithValues: live.fields.keys.map { ($0, stamp) })
        var gone = SyncRecord(entity: "outreach.year", id: UUID(), scope: "family:f1")
        gone.deleted = try #require(HLC("000001700000009-00000-laptop"))
        return PullResponse(
            changes: [ChangeDTO(record: live, seq: 41), ChangeDTO(record: gone, seq: 9_000_000_000)], cursor: "c1.abc",
            hasMore: true, gone: ["family:old"])
    }

    @Test func readsWhatTheDecoderReads() throws {
        for page in [try Self.page(), PullResponse(changes: [], cursor: "", hasMore: false)] {
            let json = try WireCoding.encoder().encode(page)
            let decoded = try WireCoding.decoder().decode(PullResponse.self, from: json)
            let read = try PullResponse(json: json)
            #expect(read.changes == decoded.changes)
            #expect(read.cursor == decoded.cursor)
            #expect(read.hasMore == decoded.hasMore)
            #expect(read.gone == decoded.gone)
        }
        #expect(try PullResponse(json: Data(#"{"changes":[],"cursor":"x","hasMore":false,"gone":null,"new":1}"#.utf8)).gone == nil)
    }

    /// White space anywhere between tokens, members in any order, unknown members (nested too)
    /// skipped, and a member given twice counting as the first, as the decoder reads them.
    @Test func readsAnyLayoutAsTheDecoderDoes() throws {
        let id = UUID()
        let text = #"""
             { "hasMore" : true , "new" : { "x" : [ 1 , { "y" : null } ] } ,
              "changes" : [ { "seq" : 7 , "stamps" : { "title" : "000001700000000-00003-phone" } , "later" : [ ] ,
                "id" : "\#(id.uuidString)" , "fields" : { "title" : "a" , "title" : "b" , "name" : "\\ \u00e9" } , "scope" : "user:ada" ,
                "deleted" : false , "entity" : "test.note" , "deletedStamp" : null } ] ,
              "cursor" : "c0" , "cursor" : "c2" }
            """#
        let decoded = try WireCoding.decoder().decode(PullResponse.self, from: Data(text.utf8))
        let read = try PullResponse(json: Data(text.utf8))
        #expect(read.changes == decoded.changes)
        #expect(read.cursor == decoded.cursor)
        #expect(read.hasMore == decoded.hasMore)
        #expect(read.changes.first?.fields == ["title": "a", "name": "\\ é"])
    }

    @Test(arguments: [
        "", "[]", #"{"cursor":"x","hasMore":false}"#, #"{"changes":[],"hasMore":false}"#, #"{"changes":[],"cursor":"x"}"#,
        #"{"changes":[],"cursor":"x","hasMore":"no"}"#, #"{"changes":[],"cursor":"x","hasMore":false,"gone":[1]}"#,
        #"{"changes":[{}],"cursor":"x","hasMore":false}"#, #"{"changes":[],"cursor":"x","hasMore":false"#,
        #"{"changes":[],"cursor":"x","hasMore":false} []"#, #"{"changes":[],"cursor":"x","hasMore":false,"gone":"all"}"#,
    ])
    func refusesWhatTheDecoderRefuses(_ text: String) {
        #expect(throws: (any Error).self) { try WireCoding.decoder().decode(PullResponse.self, from: Data(text.utf8)) }
        #expect(throws: (any Error).self) { try PullResponse(json: Data(text.utf8)) }
    }

    @Test func refusesABadIdOrStamp() throws {
        let page = try Self.page()
        let json = String(decoding: try WireCoding.encoder().encode(page), as: UTF8.self)
        let change = try #require(page.changes.first)
        for broken in [
            json.replacingOccurrences(of: change.id.uuidString.lowercased(), with: "not-a-uuid"),
            json.replacingOccurrences(of: "000001700000000-00003-phone", with: "yesterday"),
            json.replacingOccurrences(of: "000001700000009-00000-laptop", with: "later"),
        ] {
            #expect(broken != json)
            #expect(throws: (any Error).self) { try WireCoding.decoder().decode(PullResponse.self, from: Data(broken.utf8)) }
            #expect(throws: (any Error).self) { try PullResponse(json: Data(broken.utf8)) }
        }
    }
}
