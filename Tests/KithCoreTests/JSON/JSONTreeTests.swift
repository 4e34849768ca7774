import Foundation
import KithCore
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
    @Test(arguments: [3, 24, 25, 2_000])
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

    @Test func notJSONIsNil() {
        #expect(JSONTree.parse(Data("{nope".utf8)) == nil)
    }
}
