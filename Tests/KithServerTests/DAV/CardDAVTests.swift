import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The account's contacts as a CardDAV address book (docs/dav.md), on every engine: a phone's
/// card becomes a Kith contact under `/api`'s rules, a change anywhere reaches the phone's next
/// sync (and only the change), and a stale write changes nothing.
@Suite("CardDAV")
struct CardDAVTests {
    static let jane = CardText.card(
        uid: "0A1B2C3D-0000-4000-8000-00000000000A", given: "Jane", family: "Doe",
        lines: [
            "NICKNAME:JJ", "EMAIL;TYPE=home:jane@example.com", "TEL;TYPE=cell:+44 20 7946 0000",
            "ADR;TYPE=home:;;1 High St;London;;SW1A 1AA;United Kingdom", "ORG:Acme", "TITLE:Engineer",
            "CATEGORIES:friends,work", "NOTE:Met at the conference", "BDAY:1990-04-12",
            "URL:https://jane.example", "X-SOCIALPROFILE;TYPE=twitter:https://twitter.com/jane",
            "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ==", "X-CUSTOM;X-PARAM=1:kept as it is",
        ])

    @Test(arguments: Engine.available)
    func aCardFromThePhoneBecomesAContactAndComesBackWithWhatKithCannotStore(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("jane.owner@example.com", client)
            let made = try await phone.put(phone.addressBook + "jane.vcf", Self.jane, ifNoneMatch: "*")
            #expect(made.status == .created, "\(made.text)")
            let madeTag = try #require(
                made.headers[.eTag], "the member is the bytes sent, so the client gets their tag")
            let (asSent, sentTag) = try await phone.get(phone.addressBook + "jane.vcf")
            #expect(
                asSent == Self.jane && sentTag == madeTag, "served as the phone wrote it until it changes elsewhere")

            let contacts = try await phone.api(.get, "/api/contacts?with=contactfields")
            let contact = try #require(contacts["data"]?[0])
            #expect(contact["first_name"] == "Jane" && contact["last_name"] == "Doe" && contact["nickname"] == "JJ")
            #expect(contact["information"]?["career"]?["job"] == "Engineer")
            #expect(contact["information"]?["career"]?["company"] == "Acme")
            #expect(contact["information"]?["dates"]?["birthdate"]?["date"] == "1990-04-12T00:00:00Z")
            let fields = contact["contactFields"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
            #expect(Set(fields) == ["jane@example.com", "+44 20 7946 0000", "https://twitter.com/jane"], "\(fields)")
            #expect(contact["tags"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["friends", "work"])
            #expect(contact["addresses"]?[0]?["country"]?["iso"] == "GB")
            #expect(contact["addresses"]?[0]?["city"] == "London")
            let id = try #require(contact["id"]?.intValue)
            let notes = try await phone.api(.get, "/api/contacts/\(id)/notes")
            #expect(notes["data"]?[0]?["body"] == "Met at the conference")

            // Changed on the web: the phone now gets Kith's card, with what Kith could not store.
            _ = try await phone.api(.post, "/api/notes", #"{"contact_id":\#(id),"body":"Likes tea"}"#)
            let (card, etag) = try await phone.get(phone.addressBook + "jane.vcf")
            #expect(etag != madeTag)
            #expect(card.contains("NOTE:Met at the conference\\n\\nLikes tea\r\n"), "\(card)")
            for line in [
                "UID:0A1B2C3D-0000-4000-8000-00000000000A", "N:Doe;Jane;;;", "NICKNAME:JJ", "EMAIL:jane@example.com",
                "ORG:Acme", "TITLE:Engineer", "CATEGORIES:friends,work", "BDAY:1990-04-12", "URL:https://jane.example",
                "X-CUSTOM;X-PARAM=1:kept as it is",
                "X-SOCIALPROFILE;TYPE=twitter:https://twitter.com/jane",
                "PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ==",
            ] {
                #expect(card.contains(line + "\r\n"), "\(line) missing from\n\(card)")
            }
            #expect(card.contains("1 High St;London;;SW1A 1AA;United Kingdom"), "\(card)")
            // The same card read as vCard 4.0.
            let four = try await phone.send(
                "GET", phone.addressBook + "jane.vcf", headers: [.accept: "text/vcard;version=4.0"])
            #expect(four.text.contains("VERSION:4.0\r\n") && four.text.contains("BDAY:19900412"), "\(four.text)")
        }
    }

    @Test(arguments: Engine.available)
    func aSyncDownloadsOnlyWhatChangedElsewhereDeletionsIncluded(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("sync@example.com", client)
            var ids: [Int64] = []
            for name in ["Ada", "Grace", "Alan"] {
                let made = try await phone.api(
                    .post, "/api/contacts",
                    #"{"first_name":"\#(name)","is_birthdate_known":false,"is_deceased":false,"is_deceased_date_known":false}"#
                )
                ids.append(try #require(made["data"]?["id"]?.intValue))
            }
            let first = try await phone.syncCollection(phone.addressBook, token: "")
            #expect(first.members.count == 3 && first.members.allSatisfy { $0.found["getetag"] != nil })
            let token = try #require(first.syncToken)
            #expect(try await phone.syncCollection(phone.addressBook, token: token).members.isEmpty, "nothing changed")

            // A change on the web (through /api), a new contact, a deletion.
            let grace = try #require(try await phone.api(.get, "/api/contacts/\(ids[1])")["data"]?["uuid"]?.stringValue)
            let alan = try #require(try await phone.api(.get, "/api/contacts/\(ids[2])")["data"]?["uuid"]?.stringValue)
            _ = try await phone.api(
                .post, "/api/contactfields",
                #"{"contact_id":\#(ids[1]),"contact_field_type_id":1,"data":"grace@navy.example"}"#)
            _ = try await phone.api(.delete, "/api/contacts/\(ids[2])")
            let linus = try await phone.api(
                .post, "/api/contacts",
                #"{"first_name":"Linus","is_birthdate_known":false,"is_deceased":false,"is_deceased_date_known":false}"#
            )
            let linusUUID = try #require(linus["data"]?["uuid"]?.stringValue)

            let second = try await phone.syncCollection(phone.addressBook, token: token, data: "card:address-data")
            let changed = Dictionary(uniqueKeysWithValues: second.members.map { ($0.href, $0) })
            #expect(
                Set(changed.keys)
                    == [grace, alan, linusUUID].map { phone.addressBook + $0 + ".vcf" }.reduce(into: Set()) {
                        $0.insert($1)
                    })
            #expect(changed[phone.addressBook + alan + ".vcf"]?.status?.contains("404") == true, "a deletion")
            #expect(
                changed[phone.addressBook + grace + ".vcf"]?.found["address-data"]?.contains("EMAIL:grace@navy.example")
                    == true)
            let third = try await phone.syncCollection(phone.addressBook, token: try #require(second.syncToken))
            #expect(third.members.isEmpty)
            // The ctag moves with the token.
            let ctag = try await phone.propfind(phone.addressBook, depth: "0", "<cs:getctag/><d:sync-token/>")
            #expect(ctag.members.first?.found["sync-token"] == second.syncToken)
            // A token from nowhere: the client must start again (RFC 6578 valid-sync-token).
            let foreign = try await phone.send(
                "REPORT", phone.addressBook,
                body:
                    #"<d:sync-collection xmlns:d="DAV:"><d:sync-token>urn:kith:sync:000000000000:1</d:sync-token><d:prop><d:getetag/></d:prop></d:sync-collection>"#
            )
            #expect(foreign.status == .forbidden && foreign.text.contains("valid-sync-token"), "\(foreign.text)")
        }
    }

    @Test(arguments: Engine.available)
    func aStaleWriteIsRefusedAndChangesNothing(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("stale@example.com", client)
            let path = phone.addressBook + "ada.vcf"
            #expect(try await phone.put(path, CardText.card(uid: "ada", given: "Ada")).status == .created)
            let (_, etag) = try await phone.get(path)
            let tag = try #require(etag)
            // Changed on the web meanwhile.
            let id = try #require(try await phone.api(.get, "/api/contacts")["data"]?[0]?["id"]?.intValue)
            _ = try await phone.api(
                .put, "/api/contacts/\(id)",
                #"{"first_name":"Ada","last_name":"Lovelace","is_birthdate_known":false,"is_deceased":false,"is_deceased_date_known":false}"#
            )
            let stale = try await phone.put(
                path, CardText.card(uid: "ada", given: "Ada", family: "Byron"), ifMatch: tag)
            #expect(stale.status == .preconditionFailed, "\(stale.text)")
            #expect(try await phone.api(.get, "/api/contacts/\(id)")["data"]?["last_name"] == "Lovelace")
            let staleDelete = try await phone.send("DELETE", path, headers: [.ifMatch: tag])
            #expect(staleDelete.status == .preconditionFailed)
            let again = try await phone.put(path, CardText.card(uid: "ada", given: "Ada"), ifNoneMatch: "*")
            #expect(again.status == .preconditionFailed, "If-None-Match: * on a member that exists")

            let (_, current) = try await phone.get(path)
            #expect(
                try await phone.put(path, CardText.card(uid: "ada", given: "Ada", family: "King"), ifMatch: current)
                    .status == .noContent)
            #expect(try await phone.api(.get, "/api/contacts/\(id)")["data"]?["last_name"] == "King")
            let (_, latest) = try await phone.get(path)
            #expect(
                try await phone.send("DELETE", path, headers: [.ifMatch: try #require(latest)]).status == .noContent)
            #expect(try await phone.api(.get, "/api/contacts")["data"]?.arrayValue?.isEmpty == true)
            #expect(try await phone.send("GET", path).status == .notFound)
        }
    }

    @Test(arguments: Engine.available)
    func badCardsGetAClearAnswerAndChangeNothing(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("bad@example.com", client)
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("not a vcard at all", .badRequest, "could not be read"),
                ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:x\r\n", .badRequest, "could not be read"),
                (CardText.card(uid: "a", given: "A") + CardText.card(uid: "b", given: "B"), .badRequest, "one vCard"),
                (CardText.card(uid: "long", given: String(repeating: "x", count: 256)), .forbidden, "255"),
            ]
            for (index, (body, status, words)) in cases.enumerated() {
                let answer = try await phone.put(phone.addressBook + "bad\(index).vcf", body)
                #expect(
                    answer.status == status && answer.text.contains(words),
                    "case \(index): \(answer.status) \(answer.text)")
            }
            let huge = String(repeating: "NOTE:" + String(repeating: "x", count: 70) + "\r\n", count: 20_000)
            let tooLarge = try await phone.put(
                phone.addressBook + "huge.vcf", CardText.card(uid: "h", given: "H", lines: [huge]))
            #expect(tooLarge.status == .contentTooLarge, "\(tooLarge.status)")
            #expect(try await phone.api(.get, "/api/contacts")["data"]?.arrayValue?.isEmpty == true)
            #expect(try await phone.syncCollection(phone.addressBook, token: "").members.isEmpty)

            // Two cards may not share a UID (RFC 6352 no-uid-conflict).
            #expect(
                try await phone.put(phone.addressBook + "one.vcf", CardText.card(uid: "same", given: "One")).status
                    == .created)
            let clash = try await phone.put(phone.addressBook + "two.vcf", CardText.card(uid: "same", given: "Two"))
            #expect(clash.status == .forbidden && clash.text.contains("no-uid-conflict"), "\(clash.text)")
        }
    }

    /// `/api` refuses an email that is no email, a phone number of letters and a birthday to come;
    /// a phone's card carrying them is not refused (the phone would retry it forever and never
    /// sync): those lines are kept verbatim and given back, and `/api` shows only what it accepts.
    @Test(arguments: Engine.available)
    func aCardWithValuesApiRefusesIsKeptAndTheyComeBackVerbatim(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("loose@example.com", client)
            let card = CardText.card(
                uid: "0A1B2C3D-0000-4000-8000-00000000000B", given: "Loose", family: "Values",
                lines: [
                    "EMAIL;TYPE=home:loose at example dot com", "EMAIL;TYPE=work:loose@example.com",
                    "TEL;TYPE=cell:1-800-FLOWERS", "TEL;TYPE=home:+1 555 0100", "BDAY:2999-01-01",
                ])
            let made = try await phone.put(phone.addressBook + "loose.vcf", card, ifNoneMatch: "*")
            #expect(made.status == .created, "\(made.text)")
            let contact = try #require(try await phone.api(.get, "/api/contacts?with=contactfields")["data"]?[0])
            let fields = contact["contactFields"]?.arrayValue?.compactMap { $0["content"]?.stringValue } ?? []
            #expect(Set(fields) == ["loose@example.com", "+1 555 0100"], "\(fields)")
            #expect(contact["information"]?["dates"]?["birthdate"]?["date"] == .null)

            // Changed elsewhere, the phone gets Kith's card, with the lines /api refused as they were.
            let id = try #require(contact["id"]?.intValue)
            _ = try await phone.api(.post, "/api/notes", #"{"contact_id":\#(id),"body":"Likes tea"}"#)
            let (served, _) = try await phone.get(phone.addressBook + "loose.vcf")
            for line in [
                "EMAIL:loose@example.com", "EMAIL;TYPE=home:loose at example dot com", "TEL:+1 555 0100",
                "TEL;TYPE=cell:1-800-FLOWERS", "BDAY:2999-01-01",
            ] {
                #expect(served.contains(line + "\r\n"), "\(line) missing from\n\(served)")
            }
        }
    }

    @Test(arguments: Engine.available)
    func onlyTheAccountsEmailAndAnAppPasswordSignIn(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("owner@example.com", client)
            let other = try await DAVPhone.make("other@example.com", client)
            #expect(
                try await phone.put(phone.addressBook + "x.vcf", CardText.card(uid: "x", given: "Secret")).status
                    == .created)

            let noCredentials = try await client.execute(uri: "/dav/", method: HTTPRequest.Method("PROPFIND")!)
            #expect(
                noCredentials.status == .unauthorized
                    && noCredentials.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            let password = try await phone.send("PROPFIND", "/dav/", password: "correct horse")
            #expect(password.status == .unauthorized && password.text.contains("app password"), "\(password.text)")
            let session = try await phone.send("PROPFIND", "/dav/", password: phone.bearer)
            #expect(session.status == .unauthorized, "a session token is not an app password")
            let wrongEmail = DAVPhone(
                email: other.email, userID: phone.userID, bearer: phone.bearer, appPassword: phone.appPassword,
                client: client)
            #expect(try await wrongEmail.send("PROPFIND", "/dav/").status == .unauthorized)

            // Another account's collections are not there for this one.
            #expect(try await other.send("GET", phone.addressBook + "x.vcf").status == .notFound)
            #expect(try await other.send("PROPFIND", phone.addressBook, headers: [.depth: "1"]).status == .notFound)
            #expect(
                try await other.put(phone.addressBook + "y.vcf", CardText.card(uid: "y", given: "Intruder")).status
                    == .notFound)
            #expect(try await other.syncCollection(other.addressBook, token: "").members.isEmpty)

            // Revoking the token signs the phone out.
            let tokens = try await client.call(.get, "/v1/tokens", token: phone.bearer).decode(PersonalTokenList.self)
            for token in tokens.tokens {
                _ = try await client.call(.delete, "/v1/tokens/\(token.id.lowercased)", token: phone.bearer)
            }
            #expect(try await phone.send("PROPFIND", "/dav/").status == .unauthorized)
        }
    }
}
