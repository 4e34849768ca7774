import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Undoing a completion on the reminder's page (issue 17): the one who completed it, within the 30 s
/// before the parents are told, and then no one is told and the reminder's notices come as before.
/// Later, or by anyone else, the page says why not and nothing changes. The test clock moves; the
/// job runner looks for due notices every 20 ms.
@Suite("Family: undoing a completion")
struct FamilyUndoTests {
    typealias Pages = FamilyNoticePagesTests

    /// A reminder of the parent's for the child, due in 10 minutes, that the child just completed
    /// from its page: its id, page and due time.
    static func completedByTheChild(
        _ family: inout FamilyPagesTests.Family, _ client: any TestClientProtocol, _ server: TestServer
    ) async throws -> (id: String, page: String, due: Date) {
        let (id, due) = try await Pages.remind(&family, client, server, "Feed the cat", inMinutes: 10)
        let page = "/family/reminders/\(id)"
        let done = try await family.child.post(client, "\(page)/complete", form: ["back": page])
        #expect(done.status == .found && done.headers[.location] == page)
        return (id, page, due)
    }

    static let undoForm = #"id="undo""#

    /// The notices a person's notices page lists.
    static func notices(_ browser: WebSessionTests.Browser, _ client: any TestClientProtocol) async throws -> String {
        var browser = browser
        return try await browser.get(client, "/family/notices").text
    }

    @Test(arguments: Engine.available)
    func anUndoneCompletionTellsTheParentsNothingAndTheDueNoticesStillCome(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let (id, page, due) = try await Self.completedByTheChild(&family, client, server)
            let shown = try await family.child.get(client, page)
            #expect(shown.text.contains(#"<span id="undo-note">Completed.</span>"#), "right after completing it")
            #expect(shown.text.contains(#"action="/family/reminders/\#(id)/undo""#))
            #expect(shown.text.contains(#"data-seconds-left="30""#))
            #expect(
                !(try await family.parent.get(client, page)).text.contains(Self.undoForm), "not the parent's to undo")

            server.clock.advance(by: 10)
            let undone = try await family.child.post(client, "\(page)/undo", form: ["back": page])
            #expect(undone.status == .found && undone.headers[.location] == page, "\(undone.status) \(undone.text)")
            let after = try await family.child.get(client, page)
            #expect(after.text.contains(#"id="reminder-status">Pending</span>"#) && !after.text.contains(Self.undoForm))
            #expect(after.text.contains(#"id="complete-button""#), "it may be completed again")
            let stored = try #require(
                try await FamilyPagesTests.pulled(client, family.parentDevice, FamilyEntities.reminder).first)
            #expect(stored.fields["status"] == .string("pending") && (stored.fields["completedBy"] ?? .null) == .null)
            #expect(stored.fields["dueAt"] == .string(WireCoding.formatTimestamp(due)), "due as before")

            // Past the 30 s: no completion notice.
            server.clock.advance(by: 25)
            try await server.app.jobsCaughtUp()
            #expect(
                Pages.noticeIDs(try await Self.notices(family.parent, client)).isEmpty, "the parent is told nothing")

            // The reminder's own notices still come to the child, then the due one.
            Pages.move(server, to: due, plus: -170)
            try await eventually { try await Self.notices(family.child, client).contains("In 3 minutes: Feed the cat") }
            Pages.move(server, to: due, plus: 1)
            try await eventually { try await Self.notices(family.child, client).contains("Due now") }
            #expect(Pages.noticeIDs(try await Self.notices(family.parent, client)).isEmpty)
        }
    }

    @Test(arguments: Engine.available)
    func anUndoAfterThirtySecondsIsRefusedAndChangesNothing(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let (_, page, _) = try await Self.completedByTheChild(&family, client, server)
            server.clock.advance(by: 31)
            #expect(!(try await family.child.get(client, page)).text.contains(Self.undoForm), "no longer offered")
            let before = try await FamilyWebRulesTests.familyRecords(client, family.parentDevice.accessToken)

            let late = try await family.child.post(client, "\(page)/undo", form: ["back": page])
            #expect(late.status == .unprocessableContent)
            #expect(
                late.text.contains("A completion can be undone only within 30 seconds."), "\(late.text.prefix(400))")
            #expect(try await FamilyWebRulesTests.familyRecords(client, family.parentDevice.accessToken) == before)
            try await eventually {
                try await Self.notices(family.parent, client).contains("Byron completed Feed the cat")
            }
        }
    }

    @Test(arguments: Engine.available)
    func aParentWhoDidNotCompleteItCannotUndoIt(engine: Engine) async throws {
        try await TestServer.withRouter(engine, configure: FamilyNoticesTests.configure) { server, client in
            var family = try await FamilyPagesTests.founded(client)
            let (_, page, _) = try await Self.completedByTheChild(&family, client, server)
            let before = try await FamilyWebRulesTests.familyRecords(client, family.parentDevice.accessToken)

            let refused = try await family.parent.post(client, "\(page)/undo", form: ["back": page])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Only the person who completed this reminder can undo it."))
            #expect(try await FamilyWebRulesTests.familyRecords(client, family.parentDevice.accessToken) == before)
            #expect(try await family.child.get(client, page).text.contains(Self.undoForm), "still the child's to undo")
        }
    }
}
