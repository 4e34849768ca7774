import Foundation
import KithCore
import Testing

/// Kith writes and reads UUIDs without Foundation's formatter and parser (issue 18): the same
/// text out, the same ids in for the one form Kith takes.
@Suite("UUIDs as text")
struct UUIDTextTests {
    @Test func writesFoundationsFormInLowerCase() {
        var samples = (0..<1_000).map { _ in UUID() }
        samples += [UUID.zero, UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        for uuid in samples {
            #expect(uuid.lowercased == uuid.uuidString.lowercased())
        }
    }

    @Test(arguments: [
        "6F9619FF-8B86-D011-B42D-00C04FC964FF", "6f9619ff-8b86-d011-b42d-00c04fc964ff", "6f9619FF-8b86-D011-b42d-00C04fc964ff",
        "00000000-0000-0000-0000-000000000000",
    ])
    func readsWhatFoundationReads(_ text: String) throws {
        #expect(UUID(text: text) == (try #require(UUID(uuidString: text))))
    }

    /// Only the `8-4-4-4-12` form: Foundation's parser on Linux also reads the last two, as
    /// other ids than they say.
    @Test(arguments: [
        "", "6f9619ff8b86d011b42d00c04fc964ff", "{6f9619ff-8b86-d011-b42d-00c04fc964ff}", "6f9619ff-8b86-d011-b42d-00c04fc964f",
        "6f9619ff-8b86-d011-b42d-00c04fc964fff", "6f9619ff-8b86-d011-b42d_00c04fc964ff", "6f9619fg-8b86-d011-b42d-00c04fc964ff",
        "6f9619ff-8b86-d011-b42d-00c04fc964f\u{0}", "6f9619ff-8b86-d011-b42d-00c04fc964é", "6f9619ff-8b8-6d011-b42d-00c04fc964ff",
        "６f9619ff-8b86-d011-b42d-00c04fc964f", " 6f9619ff-8b86-d011-b42d-00c04fc964f", "+f9619ff-8b86-d011-b42d-00c04fc964ff",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(UUID(text: text) == nil)
    }

    @Test func theWiresDecoderReadsTheSameForm() throws {
        struct Holder: Codable { @LowercaseUUID var id: UUID }
        let id = UUID()
        #expect(try WireCoding.decoder().decode(Holder.self, from: Data(#"{"id":"\#(id.uuidString)"}"#.utf8)).id == id)
        #expect(throws: DecodingError.self) {
            try WireCoding.decoder().decode(Holder.self, from: Data(#"{"id":" 6f9619ff-8b86-d011-b42d-00c04fc964f"}"#.utf8))
        }
    }

    @Test func readsEveryUUIDItWrites() {
        for _ in 0..<1_000 {
            let uuid = UUID()
            #expect(UUID(text: uuid.lowercased) == uuid)
            #expect(UUID(text: uuid.uuidString) == uuid)
        }
    }
}
