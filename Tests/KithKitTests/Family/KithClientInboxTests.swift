import Foundation
import KithCore
import KithKit
import KithTestSupport
import Testing

/// KithClient's inbox routes against a scripted transport: the query a page asks with, the bodies
/// that mark notices read, and a limit refused before sending.
@Suite("KithClient inbox routes")
struct KithClientInboxTests {
    static let notice = NoticeDTO(
        id: "n1", kind: .due, title: "Feed the cat", body: "Due now.", reminderId: UUID().lowercased,
        occurrence: Fixture.now, dueAt: Fixture.now, deliveredAt: Fixture.now, late: false, readAt: nil, seq: 42)

    static func client(_ transport: FakeTransport) -> KithClient {
        Fixture.client(transport, store: InMemorySessionStore(Fixture.session()))
    }

    @Test func aPageAsksForWhatItWasGivenAndDecodesTheAnswer() async throws {
        let page = InboxPage(notices: [Self.notice], unread: 1, next: 42)
        let transport = FakeTransport.replaying(Fixture.json(page), Fixture.json(page))
        let client = Self.client(transport)

        #expect(try await client.inbox() == page)
        _ = try await client.inbox(unreadOnly: true, limit: 10, before: 42)

        #expect(transport.log.lines == ["GET /v1/inbox", "GET /v1/inbox"])
        let queries = transport.log.requests.map { URLComponents(url: $0.url, resolvingAgainstBaseURL: false)?.query }
        #expect(queries == ["limit=50", "limit=10&unread=true&before=42"])
    }

    @Test func markingReadSendsTheIdsInChunksOrAllAndAnswersTheUnreadCount() async throws {
        let transport = FakeTransport.replaying(
            Fixture.json(InboxPage(notices: [], unread: 7, next: nil)),
            Fixture.json(InboxPage(notices: [], unread: 3, next: nil)),
            Fixture.json(InboxPage(notices: [], unread: 0, next: nil)))
        let client = Self.client(transport)
        let ids = (0..<(InboxLimits.idsPerRequest + 2)).map { "n\($0)" }

        #expect(try await client.markNoticesRead(ids: ids) == 3, "the count after the last chunk")
        #expect(try await client.markAllNoticesRead() == 0)

        #expect(transport.log.lines == Array(repeating: "POST /v1/inbox/read", count: 3))
        let bodies = try transport.log.requests.map { try $0.decodedBody(MarkNoticesReadRequest.self) }
        #expect(bodies.map { $0.ids?.count } == [InboxLimits.idsPerRequest, 2, nil])
        #expect(bodies[1].ids == ["n\(InboxLimits.idsPerRequest)", "n\(InboxLimits.idsPerRequest + 1)"])
        #expect(bodies.map(\.all) == [nil, nil, true])
    }

    @Test func aLimitOutsideThePageSizesIsRefusedWithoutARequest() async throws {
        let transport = FakeTransport.replaying([])
        let client = Self.client(transport)
        #expect(await expectKithError { try await client.inbox(limit: 0) }?.field == "limit")
        #expect(
            await expectKithError { try await client.inbox(limit: InboxLimits.page.upperBound + 1) }?.field == "limit")
        #expect(transport.log.lines.isEmpty)
    }
}
