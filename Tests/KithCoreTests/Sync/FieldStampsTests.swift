import KithCore
import Testing

@Suite("Field stamps as stored")
struct FieldStampsTests {
    @Test func readsWhatItWritesWithKeysSorted() throws {
        let stamps = [
            "name": try #require(HLC("000001700000000-00003-phone")),
            "email": try #require(HLC("000001700000001-00000-laptop")),
        ]
        let text = FieldStamps.text(of: stamps)
        #expect(text == #"{"email":"000001700000001-00000-laptop","name":"000001700000000-00003-phone"}"#)
        #expect(FieldStamps.parse(text) == stamps)
        #expect(FieldStamps.parse("{}") == [:])
    }

    @Test(arguments: ["", "[]", #"{"name":1}"#, #"{"name":"yesterday"}"#, #"{"name":"000001700000000-00003-phone""#])
    func anythingElseIsNil(_ text: String) {
        #expect(FieldStamps.parse(text) == nil)
    }
}
