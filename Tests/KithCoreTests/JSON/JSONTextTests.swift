import Foundation
import KithCore
import Testing

@Suite("JSON text written and read without coders")
struct JSONTextTests {
    /// Objects of strings as JSONTree writes them and as Foundation's encoder writes them (which
    /// escapes `/` too) read back the same; random strings cover escapes and every plane.
    @Test func stringObjectsReadWhatEitherWriterWrote() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "Z", "é", "中", "😀", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{7f}", " ", "\u{2028}"]
        for _ in 0..<300 {
            var object: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                let key = (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
                object[key] = (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            }
            let ours = JSONTree.object(JSONObject(object.map { ($0.key, .string($0.value)) })).text
            #expect(JSONText.stringObject(ours) == object, "\(ours)")
            let foundation = String(decoding: try JSONEncoder().encode(object), as: UTF8.self)
            #expect(JSONText.stringObject(foundation) == object, "\(foundation)")
        }
        #expect(JSONText.stringObject(#" { "a" : "\ud83d\ude00" , "b":"\u00e9" } "#) == ["a": "😀", "b": "é"])
    }

    @Test(arguments: [
        "", "{", "[]", #"{"a":1}"#, #"{"a":"x",}"#, #"{"a":"x"} x"#, #"{"a":"\q"}"#, "{\"a\":\"\u{01}\"}", #"{"a":"\ud800"}"#,
        #"{"a":"\udc00"}"#, #"{"a":"x"#, #"{a:"x"}"#,
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(JSONText.stringObject(text) == nil)
    }

    @Test func integersAndStringsAreWrittenAsJSON() throws {
        var output: [UInt8] = []
        JSONText.append(integer: .min, to: &output)
        output.append(UInt8(ascii: ","))
        JSONText.append(string: "q\"\\\u{1f}", to: &output)
        #expect(String(decoding: output, as: UTF8.self) == #"-9223372036854775808,"q\"\\\u001f""#)
    }
}
