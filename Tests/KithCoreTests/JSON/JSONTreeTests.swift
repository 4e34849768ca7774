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

    @Test func notJSONIsNil() {
        #expect(JSONTree.parse(Data("{nope".utf8)) == nil)
    }
}
