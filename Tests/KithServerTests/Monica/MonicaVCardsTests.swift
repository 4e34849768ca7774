import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// Kith's `/api/vcards` (docs/monica.md, "Kith's extension: vCard files"), on every engine: a
/// Google Contacts or iPhone export made contacts (each card as CardDAV reads it), the likely
/// duplicates named, a broken file refused whole, and every contact exported as one file.
@Suite("Monica API: importing and exporting vCard files")
struct MonicaVCardsTests {
    static func fixture(_ name: String) throws -> String {
        try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent("Tests/fixtures/dav/\(name)"), encoding: .utf8)
    }

    static func send(_ user: MonicaUser, _ text: String) async throws -> MonicaAnswer {
        try await send(user, Array(text.utf8))
    }

    static func send(_ user: MonicaUser, _ bytes: [UInt8]) async throws -> MonicaAnswer {
        let response = try await user.client.execute(
            uri: "/api/vcards", method: .post,
            headers: [
                .authorization: "Bearer \(user.token)", .contentType: "text/vcard; charset=utf-8",
                .accept: "application/json",
            ],
            body: ByteBuffer(bytes: bytes))
        let body = String(buffer: response.body)
        return MonicaAnswer(
            status: response.status, json: JSONTree.parse(Data(body.utf8)) ?? .null, headers: response.headers,
            text: body)
    }

    static func names(_ user: MonicaUser) async throws -> [String] {
        let listed = try await user.get("/api/contacts?limit=100&sort=first_name")
        return listed.data?.arrayValue?.compactMap { $0["complete_name"]?.stringValue } ?? []
    }

    @Test(arguments: Engine.available)
    func googleAndIPhoneExportsBecomeContactsWithTheirLikelyDuplicates(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let babbage = try await me.contact("Charles", "Babbage")
            let google = try await Self.send(me, try Self.fixture("google-contacts-export.vcf"))
            #expect(google.status == .ok, "\(google.text)")
            #expect(google.data?["imported"] == 3)
            let pairs = google.data?["possible_duplicates"]?.arrayValue ?? []
            #expect(pairs.count == 1, "\(google.text)")
            #expect(pairs.first?["existing"]?["id"] == .int(babbage) && pairs.first?["reason"] == "the same name")
            #expect(pairs.first?["contact"]?["complete_name"] == "Charles Babbage")

            let arun = try #require(
                google.data?["contacts"]?.arrayValue?.first { $0["first_name"] == "Arun" }?["id"]?.intValue)
            let shown = try #require(try await me.get("/api/contacts/\(arun)?with=contactfields").data)
            #expect(shown["information"]?["career"]?["company"] == "Acme Ltd")
            #expect(shown["information"]?["dates"]?["birthdate"]?["date"] == "1980-09-21T00:00:00Z")
            let fields = shown["contactFields"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
            #expect(Set(fields) == ["arun.kumar@acme.example", "arun@home.example", "+91 98765 43210"], "\(fields)")
            #expect(shown["addresses"]?[0]?["country"]?["iso"] == "IN")
            let tags = shown["tags"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            #expect(tags.contains("Vendors"), "\(tags)")

            // The iPhone's export: Ada is there already (by her email), the company card is named.
            _ = try await me.post(
                "/api/contactfields",
                [
                    "contact_id": .int(try await me.contact("Augusta", "King")),
                    "contact_field_type_id": .int(
                        try #require(try await me.get("/api/contactfieldtypes").data?[0]?["id"]?.intValue)),
                    "data": "ada@example.org",
                ])
            let iphone = try await Self.send(me, try Self.fixture("iphone-contacts-export.vcf"))
            #expect(iphone.data?["imported"] == 4, "\(iphone.text)")
            let ada = iphone.data?["possible_duplicates"]?.arrayValue?.first
            #expect(ada?["contact"]?["complete_name"] == "Ada Lovelace" && ada?["reason"] == "the same email")
            let names = try await Self.names(me)
            for name in ["Grace Brewster Murray Hopper", "Margaret Hamilton", "Difference Engine Co.", "Priya Sharma"] {
                #expect(names.contains(name), "\(name) in \(names)")
            }
            let grace = try #require(
                iphone.data?["contacts"]?.arrayValue?.first { $0["first_name"] == "Grace" }?["id"]?.intValue)
            let born = try await me.get("/api/contacts/\(grace)").data?["information"]?["dates"]?["birthdate"]
            #expect(born?["is_year_unknown"] == true, "BDAY;X-APPLE-OMIT-YEAR is a day without its year")
        }
    }

    @Test(arguments: Engine.available)
    func aBrokenOrRefusedCardImportsNothingAndIsNamed(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let good = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\nEND:VCARD\r\n"
            // The second card (from line 6) has a line with no colon (line 8).
            let broken = good + "BEGIN:VCARD\r\nVERSION:3.0\r\nthis line has no colon\r\nEND:VCARD\r\n" + good
            let refused = try await Self.send(me, broken)
            #expect(refused.status == .unprocessableContent, "\(refused.text)")
            let message = refused.json["error"]?["message"]?[0]?.stringValue ?? ""
            #expect(message.hasPrefix("Card 2 (line 8): ") && message.hasSuffix("Nothing was imported."), "\(message)")

            let tooLong =
                good + "BEGIN:VCARD\r\nVERSION:3.0\r\nN:;\(String(repeating: "x", count: 256));;;\r\nEND:VCARD\r\n"
            let long = try await Self.send(me, tooLong)
            #expect(
                long.json["error"]?["message"]?[0]?.stringValue
                    == "Card 2 (line 6): The first name must not be greater than 255 characters. Nothing was imported: correct the card, or remove it, and import the file again.",
                "\(long.text)")
            expectDataError(
                try await Self.send(me, "Name,Email\r\nAda,ada@example.org\r\n"),
                [
                    "The file (line 1): Line 1 has no colon: each line is NAME:value (or NAME;PARAM=x:value). Nothing was imported."
                ])
            expectDataError(
                try await Self.send(me, [0x42, 0x45, 0xFF, 0xFE]),
                ["The file is not UTF-8 text: export the contacts as vCard (.vcf) and try again."])
            #expect(try await Self.names(me).isEmpty, "nothing was imported")
        }
    }

    @Test(arguments: Engine.available)
    func everyContactIsExportedAsOneFileThatImportsTheSame(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            _ = try await Self.send(me, try Self.fixture("google-contacts-export.vcf"))
            _ = try await other.contact("Someone", "Else")
            let exported = try await me.get("/api/vcards")
            #expect(exported.status == .ok)
            #expect(exported.headers[.contentType] == "text/vcard; charset=utf-8")
            #expect(exported.headers[.contentDisposition] == "attachment; filename=\"contacts.vcf\"")
            let cards = try ContactCard.parse(exported.text)
            #expect(cards.map(\.formattedName).sorted() == ["Arun Kumar", "Charles Babbage", "Priya Sharma"])
            #expect(!exported.text.contains("Someone"), "another account's contacts are not in it")
            let uuids = try await me.get("/api/contacts?limit=100").data?.arrayValue?.compactMap {
                $0["uuid"]?.stringValue
            }
            #expect(Set(cards.map(\.uid)) == Set(uuids ?? []), "each card's UID is its contact's uuid")

            // The file imported elsewhere makes the same people.
            let again = try await Self.send(other, exported.text)
            #expect(again.data?["imported"] == 3, "\(again.text)")
            let reexported = try ContactCard.parse(try await other.get("/api/vcards").text)
            let priya = try #require(reexported.first { $0.formattedName == "Priya Sharma" })
            #expect(priya.birthday == .monthDay(month: 2, day: 29))
            #expect(priya.phones.map(\.value) == ["+91 91234 56789", "+91 80 4000 1234"])
        }
    }
}
