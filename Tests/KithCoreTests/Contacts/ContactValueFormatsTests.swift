import KithCore
import Testing

/// What a contact's email, phone and link must look like, as server and devices both check it.
@Suite("ContactValueFormats")
struct ContactValueFormatsTests {
    @Test func phonesAreDigitsWithThePunctuationPeopleWrite() {
        for good in ["+44 (0)20 7946-0958", "555.0100", "112", " 0033 1 23 45 67 89 "] {
            #expect(ContactValueFormats.isPhone(good), "\(good)")
        }
        for bad in ["12", "call me", "555-CAKE", "+1 555 0100 ext 2", "", "١٢٣٤٥"] {
            #expect(!ContactValueFormats.isPhone(bad), "\(bad)")
        }
    }

    @Test func linksAreWebAddressesABrowserOpens() {
        for good in ["https://shop.example/teapot?colour=blue", "http://127.0.0.1:8080/x", "HTTPS://Example.com"] {
            #expect(ContactValueFormats.isWebLink(good), "\(good)")
        }
        for bad in [
            "javascript:alert(1)", "shop.example", "ftp://shop.example", "https://", "https://a b.example", "data:,x",
        ] {
            #expect(!ContactValueFormats.isWebLink(bad), "\(bad)")
        }
    }

    @Test func aFieldsKindDecidesItsRule() {
        #expect(ContactValueFormats.problem(kind: "email", value: "ada@example.com", attribute: "data") == nil)
        #expect(
            ContactValueFormats.problem(kind: "email", value: "ada", attribute: "data")
                == "The data must be a valid email address.")
        #expect(ContactValueFormats.problem(kind: "phone", value: "ada", attribute: "data") != nil)
        #expect(ContactValueFormats.problem(kind: nil, value: "anything at all", attribute: "data") == nil)
    }
}
