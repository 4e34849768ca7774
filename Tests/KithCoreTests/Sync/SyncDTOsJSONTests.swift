import Foundation
import KithCore
import Testing

/// The server reads a push with `PushRequest(json:)` and answers with `PushResponse.writeJSON`:
/// each must read and say what the wire's coders read and say.
@Suite("Pushes read and answered without the coders")
struct SyncDTOsJSONTests {
    static let stamp = "000001700000000-00003-phone"

    static func mutation(fields: String?, op: String = "upsert", extra: String = "") -> String {
        let fieldsMember = fields.map { #","fields":"# + $0 } ?? ""
        return #"{"mutationId":"\#(UUID().uuidString)","entity":"outreach.contact","id":"\#(UUID().uuidString.lowercased())","#
            + #""scope":"user:ada","op":"\#(op)","hlc":"\#(stamp)""# + fieldsMember + extra + "}"
    }

    static func push(_ mutations: [String]) -> String {
        #"{"clientId":"\#(UUID().uuidString)","mutations":["# + mutations.joined(separator: ",") + "]}"
    }

    @Test func aPushIsReadAsTheDecoderReadsIt() throws {
        let bodies = [
            Self.push([]),
            Self.push([
                Self.mutation(fields: #"{"firstName":"Zoë \"Z\" 😀\n","age":41,"vip":true,"note":null,"big":-9223372036854775808}"#),
                Self.mutation(fields: #"{"grams":12.5,"tiny":-0.001,"ratio":2.5e-3}"#),
                Self.mutation(fields: nil, op: "delete"), Self.mutation(fields: "null", op: "delete"),
                Self.mutation(fields: "{}", extra: #","unknown":[1.5,{"x":1}]"#),
            ]),
        ]
        for body in bodies {
            let decoded = try WireCoding.decoder().decode(PushRequest.self, from: Data(body.utf8))
            let read = try PushRequest(json: Array(body.utf8))
            #expect(read.clientId == decoded.clientId)
            #expect(read.mutations == decoded.mutations)
            // Equal as values and as JSON: an integer stays an integer.
            #expect(read.mutations.map { $0.fields.mapValues(\.text) } == decoded.mutations.map { $0.fields.mapValues(\.text) })
        }
    }

    /// Left to the decoder: bodies it refuses, and values it may read otherwise (a whole number
    /// with a fraction or exponent reads as an integer there; lists and objects; a key twice).
    @Test(arguments: [
        "", "[]", "{}", #"{"clientId":"x","mutations":[]}"#, #"{"clientId":"\#(UUID())"}"#,
        push([mutation(fields: #"{"grams":1e2}"#)]),
        push([mutation(fields: #"{"grams":1.0}"#)]), push([mutation(fields: #"{"tags":["a"]}"#)]),
        push([mutation(fields: #"{"where":{"lat":1}}"#)]), push([mutation(fields: #"{"a":"x","a":"y"}"#)]),
        push([mutation(fields: #""text""#)]), push([mutation(fields: nil, op: "merge")]),
        push([mutation(fields: nil, extra: #","op":"delete""#)]),
        push([mutation(fields: nil).replacingOccurrences(of: stamp, with: "yesterday")]),
        push([mutation(fields: nil).replacingOccurrences(of: #""user:ada""#, with: "1")]),
    ])
    func whatItDoesNotReadIsLeftToTheDecoder(_ body: String) throws {
        #expect(throws: (any Error).self) { try PushRequest(json: Array(body.utf8)) }
    }

    @Test func theDecoderReadsWhatItLeavesAsItAlwaysDid() throws {
        let fraction = try WireCoding.decoder().decode(
            PushRequest.self, from: Data(Self.push([Self.mutation(fields: #"{"a":1.0,"b":12.5}"#)]).utf8))
        #expect(fraction.mutations.first?.fields == ["a": 1, "b": 12.5])
        let twice = try WireCoding.decoder().decode(
            PushRequest.self, from: Data(Self.push([Self.mutation(fields: nil, extra: #","op":"delete""#)]).utf8))
        #expect(twice.mutations.first?.op == .upsert)
    }

    /// A device writes its pushes the same way.
    @Test func aPushIsWrittenAsTheEncoderWritesIt() throws {
        let stamp = try #require(HLC(Self.stamp))
        let push = PushRequest(
            clientId: UUID(),
            mutations: [
                Mutation(
                    mutationId: UUID(), entity: "outreach.contact", id: UUID(), scope: "user:ada", op: .upsert,
                    fields: ["firstName": "Zoë \"Z\"/\n", "age": 41, "grams": 12.5, "vip": false, "note": nil], hlc: stamp),
                Mutation(mutationId: UUID(), entity: "outreach.contact", id: UUID(), scope: "family:f1", op: .delete, hlc: stamp),
            ])
        let written = try #require(JSONTree.parse(bytes: push.jsonBytes))
        #expect(written == JSONTree.parse(try WireCoding.encoder().encode(push)))
        let read = try PushRequest(json: push.jsonBytes)
        #expect(read.clientId == push.clientId)
        #expect(read.mutations == push.mutations)
    }

    @Test func anAnswerIsWrittenAsTheEncoderWritesIt() throws {
        var record = SyncRecord(entity: "outreach.contact", id: UUID(), scope: "family:f1")
        record.fields = ["firstName": "Zoë \"Z\"", "age": 41, "weight": 72.5, "vip": true, "note": nil, "tags": ["a", ["b": 1]]]
        record.stamps = ["firstName": try #require(HLC(Self.stamp))]
        record.deleted = try #require(HLC("000001700000009-00000-laptop"))
        let answer = PushResponse(
            results: [
                MutationResult(mutationId: UUID(), status: .applied),
                MutationResult(mutationId: UUID(), status: .duplicate),
                MutationResult(
                    mutationId: UUID(), status: .rejected, code: "forbidden", message: "No \"way\"/here", field: "age",
                    record: ChangeDTO(record: record, seq: 9_000_000_000)),
                MutationResult(
                    mutationId: UUID(), status: .rejected, code: "conflict",
                    record: ChangeDTO(record: SyncRecord(entity: "outreach.year", id: UUID(), scope: "user:ada"), seq: 1)),
            ], cursor: "c1.abc", serverTime: 1_790_000_000_123)
        let written = try #require(JSONTree.parse(bytes: answer.jsonBytes))
        #expect(written == JSONTree.parse(try WireCoding.encoder().encode(answer)))
        let decoded = try WireCoding.decoder().decode(PushResponse.self, from: Data(answer.jsonBytes))
        #expect(decoded.results == answer.results)
        #expect(decoded.cursor == answer.cursor)
        #expect(decoded.serverTime == answer.serverTime)
        #expect(written["results"]?[0]?.objectValue?.keys == ["mutationId", "status"])
    }
}
