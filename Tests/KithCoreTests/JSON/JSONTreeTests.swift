import Foundation
@testable import KithCore
import Testing

@Suite("Ordered JSON documents")
struct JSONTreeTests {
    @Test func writesKeysInOrderAndNullsExplicitly() {
        let tree: JSONTree = ["id": 42, "name": "Ann \"A\"\n", "nickname": nil, "tags": [true, 1.5], "z": [:]]
        #expect(tree.text == #"{"id":42,"name":"Ann \"A\"\n","nickname":null,"tags":[true,1.5],"z":{}}"#)
    }

    @Test func readsWhatItWrites() throws {
        let tree: JSONTree = ["a": ["b": [1, "two", nil, false]], "c": .double(48.8559), "é": "ü"]
        let parsed = try #require(JSONTree.parse(Data(tree.serialized())))
        #expect(parsed["a"]?["b"]?[1]?.stringValue == "two")
        #expect(parsed["a"]?["b"]?[0]?.intValue == 1)
        #expect(parsed["a"]?["b"]?[2]?.isNull == true)
        #expect(parsed["a"]?["b"]?[3]?.boolValue == false)
        #expect(parsed["c"]?.doubleValue == 48.8559)
        #expect(parsed["é"]?.stringValue == "ü")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSONTree.string("a\u{01}b").text == #""a\u0001b""#)
    }

    @Test func integersAtTheirEdgesAreWrittenWhole() {
        let tree: JSONTree = [.int(Int64.min), .int(Int64.max), .int(0), .int(-7), .int(1_000_000)]
        #expect(tree.text == "[-9223372036854775808,9223372036854775807,0,-7,1000000]")
    }

    /// Small objects scan their members, large ones index them: both must behave the same.
    @Test(arguments: [3, JSONObject.scanLimit, JSONObject.scanLimit + 1, 2_000])
    func objectsOfEverySizeKeepOrderLookupAndRemoval(_ size: Int) {
        var object = JSONObject((0..<size).map { ("k\($0)", .int(Int64($0))) })
        #expect(object.count == size)
        #expect(object.keys == (0..<size).map { "k\($0)" })
        #expect(object["k\(size - 1)"] == .int(Int64(size - 1)))
        #expect(object["missing"] == nil)
        object["k0"] = "replaced"
        #expect(object.keys.first == "k0" && object["k0"] == "replaced")
        object["k1"] = nil
        #expect(object.count == size - 1 && object["k1"] == nil)
        #expect(object["k\(size - 1)"] == .int(Int64(size - 1)))
        object["k1"] = true
        #expect(object.keys.last == "k1" && object["k1"] == true)
        let reversed = JSONObject(object.members.reversed().map { ($0.key, $0.value) })
        #expect(reversed == object)
        #expect(reversed.hashValue == object.hashValue)
        #expect(JSONObject([("a", 1), ("a", 2)]).members.map(\.value) == [2])
    }

    /// The parser reads what the writer writes, for random documents of every kind of value.
    @Test func parsesWhatItWritesForRandomDocuments() {
        var generator = SystemRandomNumberGenerator()
        func random(_ depth: Int) -> JSONTree {
            switch Int.random(in: 0...(depth > 3 ? 4 : 6), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .int(Int64.random(in: .min ... .max, using: &generator))
            case 3: return .double(Double.random(in: -1e6...1e6, using: &generator))
            case 4: return .string(["", "é\"", "a\nb\u{01}", "😀/x", "plain"].randomElement(using: &generator) ?? "")
            case 5: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in random(depth + 1) })
            default: return .object(JSONObject((0..<Int.random(in: 0...3, using: &generator)).map { ("k\($0)\"", random(depth + 1)) }))
            }
        }
        for _ in 0..<500 {
            let tree = random(0)
            #expect(JSONTree.parse(text: tree.text) == tree, "\(tree.text)")
        }
    }

    @Test func parsesJSONAsFoundationDoes() throws {
        let text = #" { "b" : [1, -0, 2.5e3, 1E-2, 12345678901234567890, true, false, null, "\u00e9\ud83d\ude00\/"], "a": {} } "#
        let parsed = try #require(JSONTree.parse(text: text))
        #expect(parsed == (try JSONDecoder().decode(JSONTree.self, from: Data(text.utf8))))
        #expect(parsed.objectValue?.keys == ["b", "a"])
        #expect(parsed["b"]?[0] == .int(1) && parsed["b"]?[4] == .double(12345678901234567890))
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "1e", "-", "+1", "tru", "nul", "\"a", "[1] 2", "{\"a\" 1}",
        "1e400", "\"\u{01}\"", "[\"\\ud800\"]", "{a:1}", "NaN",
    ])
    func anythingElseIsNotJSON(_ text: String) {
        #expect(JSONTree.parse(text: text) == nil)
    }

    @Test func nestingDeeperThanTheLimitIsRefusedNotRecursedInto() {
        #expect(JSONTree.parse(text: String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)) == nil)
        #expect(JSONTree.parse(text: String(repeating: "[", count: 500) + String(repeating: "]", count: 500)) != nil)
    }

    @Test func notJSONIsNil() {
        #expect(JSONTree.parse(Data("{nope".utf8)) == nil)
        // A string that is not UTF-8, with and without an escape in it.
        #expect(JSONTree.parse(bytes: [0x22, 0x61, 0xFF, 0x22]) == nil)
        #expect(JSONTree.parse(bytes: [0x22, 0x5C, 0x6E, 0xC3, 0x22]) == nil)
        #expect(JSONTree.parse(bytes: [0x22, 0xC3, 0xA9, 0x22]) == .string("é"))
    }
}
