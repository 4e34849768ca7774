import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// WebDAV done properly, whatever the collection: discovery from nothing but the server and the
/// account (RFC 6764, 5397, 6352, 4791), OPTIONS, bodies Kith refuses, methods it does not take.
@Suite("DAV protocol")
struct DAVProtocolTests {
    @Test(arguments: Engine.available)
    func aClientFindsBothCollectionsFromTheServersAddressAlone(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, _, _) = try await FamilyCalls.parentAndChild(client, server)
            let phone = try await DAVPhone.make(
                marie.email, client,
                session: try await client.logIn(marie.email, "correct horse").decode(AuthSessionResponse.self))
            for wellKnown in ["/.well-known/carddav", "/.well-known/caldav"] {
                let answer = try await phone.send("PROPFIND", wellKnown)
                #expect(answer.status == .movedPermanently && answer.headers[.location] == "/dav/", "\(wellKnown)")
            }
            let options = try await client.execute(uri: "/dav/", method: .options)
            #expect(options.status == .ok)
            let classes = options.headers[HTTPField.Name("DAV")!] ?? ""
            #expect(classes.contains("addressbook") && classes.contains("calendar-access") && classes.contains("3"))
            #expect(options.headers[.allow]?.contains("REPORT") == true)

            let root = try await phone.propfind("/dav/", depth: "0", "<d:current-user-principal/>")
            let principal = try #require(
                root.members.first?.foundElements["current-user-principal"]?.child(DAVName.href)?.trimmedText)
            #expect(principal == "/dav/principals/\(phone.userID)/")
            let homes = try await phone.propfind(
                principal, depth: "0", "<card:addressbook-home-set/><cal:calendar-home-set/><d:displayname/>")
            let found = try #require(homes.members.first)
            let addressHome = try #require(
                found.foundElements["addressbook-home-set"]?.child(DAVName.href)?.trimmedText)
            let calendarHome = try #require(found.foundElements["calendar-home-set"]?.child(DAVName.href)?.trimmedText)
            #expect(found.found["displayname"] == marie.email)

            let books = try await phone.propfind(
                addressHome, depth: "1",
                "<d:resourcetype/><d:displayname/><d:supported-report-set/><card:supported-address-data/>")
            let book = try #require(books.member(phone.addressBook))
            #expect(book.foundElements["resourcetype"]?.child(DAVName.card("addressbook")) != nil)
            #expect(book.found["displayname"] == "Contacts")
            let reports = book.foundElements["supported-report-set"]?.children.compactMap {
                $0.child(DAVName.dav("report"))?.children.first?.name.local
            }
            #expect(Set(reports ?? []) == ["sync-collection", "addressbook-multiget", "addressbook-query"])
            let calendars = try await phone.propfind(
                calendarHome, depth: "1", "<d:resourcetype/><d:displayname/><cal:supported-calendar-component-set/>")
            let calendar = try #require(calendars.member(phone.calendar))
            #expect(calendar.foundElements["resourcetype"]?.child(DAVName.cal("calendar")) != nil)
            #expect(calendar.found["displayname"] == "Curie")
            #expect(
                calendar.foundElements["supported-calendar-component-set"]?.children.first?.attributes["name"]
                    == "VTODO")
            // Depth 0 on a home lists the home alone.
            #expect(try await phone.propfind(addressHome, depth: "0", "<d:resourcetype/>").members.count == 1)
        }
    }

    @Test(arguments: Engine.available)
    func bodiesKithCannotReadAreRefusedAndMethodsItDoesNotTakeSaySo(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let phone = try await DAVPhone.make("xml@example.com", client)
            let entity = """
                <?xml version="1.0"?>
                <!DOCTYPE d [<!ENTITY x SYSTEM "file:///etc/passwd">]>
                <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&x;</d:displayname></d:prop></d:propfind>
                """
            let external = try await phone.send("PROPFIND", "/dav/", body: entity)
            #expect(external.status == .badRequest && external.text.contains("not accepted"), "\(external.text)")
            let laughs =
                "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">]><d:propfind xmlns:d=\"DAV:\">&lol;</d:propfind>"
            #expect(try await phone.send("PROPFIND", "/dav/", body: laughs).status == .badRequest)
            let unclosed = try await phone.send("PROPFIND", "/dav/", body: "<d:propfind xmlns:d=\"DAV:\"><d:prop>")
            #expect(unclosed.status == .badRequest)
            let undeclared = try await phone.send("REPORT", phone.addressBook, body: "<x:sync-collection/>")
            #expect(undeclared.status == .badRequest && undeclared.text.contains("prefix"))
            let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
            #expect(try await phone.send("PROPFIND", "/dav/", body: deep).status == .badRequest)
            let big = "<d:propfind xmlns:d=\"DAV:\">" + String(repeating: " ", count: 1 << 20) + "</d:propfind>"
            #expect(try await phone.send("PROPFIND", "/dav/", body: big).status == .contentTooLarge)

            let unknownReport = try await phone.send(
                "REPORT", phone.addressBook, body: #"<d:expand-property xmlns:d="DAV:"/>"#)
            #expect(unknownReport.status == .forbidden && unknownReport.text.contains("supported-report"))
            let wrongKind = try await phone.send(
                "REPORT", phone.addressBook, body: #"<c:calendar-multiget xmlns:c="urn:ietf:params:xml:ns:caldav"/>"#)
            #expect(wrongKind.status == .forbidden, "an address book takes no calendar report")

            let made = try await phone.send("MKCOL", "/dav/addressbooks/\(phone.userID)/more/")
            #expect(made.status == .forbidden, "\(made.status)")
            #expect(try await phone.send("MKCALENDAR", phone.calendar).status != .created)
            #expect(try await phone.send("DELETE", phone.addressBook).status == .forbidden)
            let move = try await phone.send("MOVE", phone.addressBook + "a.vcf")
            #expect(move.status == .methodNotAllowed && move.headers[.allow]?.contains("PROPFIND") == true)
            let patch = try await phone.send(
                "PROPPATCH", phone.addressBook,
                body:
                    #"<d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>Mine</d:displayname></d:prop></d:set></d:propertyupdate>"#
            )
            #expect(patch.status.code == 207 && patch.text.contains("403 Forbidden"), "\(patch.text)")
            let name = try await phone.propfind(phone.addressBook, depth: "0", "<d:displayname/>")
            #expect(name.members.first?.found["displayname"] == "Contacts", "nothing was renamed")
        }
    }
}
