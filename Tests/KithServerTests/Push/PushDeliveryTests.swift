import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Family notices pushed to devices, end to end (docs/push.md): the server plans a push job with
/// each notice, encrypts and signs each message, and Tests/support/push_service.py checks and
/// decrypts it with other implementations. The test clock moves; the runner polls every 20 ms and
/// a test waits for a whole pass of it (`jobsCaughtUp`) to prove a push did not happen.
@Suite("Web Push delivery")
struct PushDeliveryTests {
    static let configure: @Sendable (inout ServerConfig) -> Void = {
        $0.jobs.pollInterval = .milliseconds(20)
        $0.push.allowLoopback = true
    }

    /// A server whose clock reads the wall clock's current second: the stand-in judges the VAPID
    /// token's expiry by the wall clock, as a real push service does.
    static func withServer(
        _ engine: Engine, devices: [String], script: [String: [PushServiceStandIn.Answer]] = [:],
        configure: @escaping @Sendable (inout ServerConfig) -> Void = Self.configure,
        _ body: @escaping @Sendable (TestServer, any TestClientProtocol, PushServiceStandIn) async throws -> Void
    ) async throws {
        let push = try await PushServiceStandIn.start(devices: devices, script: script)
        defer { push.stop() }
        try await TestServer.withRouter(engine, configure: configure) { server, client in
            server.clock.set(to: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
            try await body(server, client, push)
        }
    }

    static func subscribe(
        _ client: any TestClientProtocol, _ person: FamilyPerson, _ push: PushServiceStandIn, _ device: String,
        kinds: [String]? = nil
    ) async throws -> WebPushDeviceDTO {
        let response = try await PushRoutesTests.subscribe(
            client, person.token, try push.subscription(device, kinds: kinds, name: device))
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(WebPushDeviceDTO.self)
    }

    /// The kinds `device` received and accepted, in order; every message must have passed the checks.
    static func kinds(_ push: PushServiceStandIn, _ device: String) throws -> [WebPushKind] {
        let received = try push.received(by: device)
        for message in received where message.error != nil { Issue.record("\(device): \(message.error!)") }
        return received.compactMap(\.payload?.kind)
    }

    static func pushJobs(_ server: TestServer) async throws -> [StoredJob] {
        try await JobTesting.repository(server).jobs(kind: PushDeliveryJob.kind)
    }

    @Test(arguments: Engine.available)
    func theChildsDevicesAreToldBeforeAndWhenDueEachMessageOnce(engine: Engine) async throws {
        try await Self.withServer(engine, devices: ["phone", "laptop", "parent"]) { server, client, push in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            _ = try await Self.subscribe(client, child, push, "phone")
            _ = try await Self.subscribe(client, child, push, "laptop")
            _ = try await Self.subscribe(client, parent, push, "parent")
            let reminder = try await FamilyNoticesTests.remind(
                client, server, parent, family, for: child.userID, in: 10)
            let due = server.clock.now.addingTimeInterval(600)
            try await server.app.jobsCaughtUp()
            #expect(try push.received().isEmpty, "nothing before its time")

            server.clock.advance(by: 7 * 60)
            try await eventually {
                try Self.kinds(push, "phone") == [.before3] && Self.kinds(push, "laptop") == [.before3]
            }
            server.clock.advance(by: 60)
            try await eventually { try Self.kinds(push, "phone").count == 2 && Self.kinds(push, "laptop").count == 2 }
            server.clock.advance(by: 60)
            try await eventually { try Self.kinds(push, "phone").count == 3 && Self.kinds(push, "laptop").count == 3 }
            server.clock.advance(by: 60)
            try await eventually { try Self.kinds(push, "phone").count == 4 && Self.kinds(push, "laptop").count == 4 }
            try await server.app.jobsCaughtUp()
            for device in ["phone", "laptop"] {
                #expect(try Self.kinds(push, device) == [.before3, .before2, .before1, .due], "each once, in order")
            }
            #expect(try push.received(by: "parent").isEmpty, "before and due notices are the assignee's")

            let messages = try push.received(by: "phone")
            #expect(messages.map(\.ttl) == ["180", "120", "60", "43200"], "until the due time; half a day once due")
            #expect(messages.allSatisfy { $0.urgency == "high" && $0.status == 201 })
            #expect(
                messages.allSatisfy {
                    $0.contentEncoding == "aes128gcm" && $0.contentType == "application/octet-stream"
                })
            #expect(messages.allSatisfy { $0.topic?.count == 32 })
            #expect(Set(messages.compactMap(\.topic)).count == 4, "a topic per reminder and kind")
            #expect(messages.allSatisfy { $0.claims?.sub == "https://kith.example" })
            let first = try #require(messages.first?.payload)
            let last = try #require(messages.last?.payload)
            #expect(first.title == "In 3 minutes: Feed the cat")
            #expect(last.title == "Feed the cat")
            let paris = try #require(TimeZone(identifier: "Europe/Paris"))
            #expect(
                last.body == "Due now (\(NoticeWording.render(NoticeWording.time(due), in: paris))).",
                "on the family's clock: \(last.body)")
            #expect(last.url == "/family/reminders/\(reminder.lowercased)")
            #expect(last.tag == "reminder:\(reminder.lowercased):\(due.epochMillis)" && first.tag == last.tag)
            #expect(last.at == due)
            let inbox = try await FamilyNoticesTests.inbox(client, child)
            #expect(
                Set(inbox.notices.map(\.id)) == Set(messages.compactMap(\.payload?.noticeId)),
                "the inbox keeps every notice")
            #expect(try await Self.pushJobs(server).allSatisfy { $0.status == .done })
            let devices = try await PushRoutesTests.devices(client, child.token)
            #expect(devices.allSatisfy { $0.lastUsedAt == server.clock.now }, "last used when the due push was taken")
        }
    }

    @Test(arguments: Engine.available)
    func aGoneDeviceIsForgottenAndABusyServiceIsAskedAgainOnlyAfterItsRetryAfter(engine: Engine) async throws {
        let script: [String: [PushServiceStandIn.Answer]] = [
            "gone": [.init(status: 410)], "busy": [.init(status: 429, retryAfter: "30")], "flaky": [.init(status: 500)],
            "refusing": [.init(status: 413)],
        ]
        try await Self.withServer(engine, devices: ["gone", "busy", "flaky", "refusing"], script: script) {
            server, client, push in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            for device in ["gone", "busy", "flaky", "refusing"] {
                _ = try await Self.subscribe(client, child, push, device, kinds: ["due"])
            }
            _ = try await FamilyNoticesTests.remind(client, server, parent, family, for: child.userID, in: 5)
            server.clock.advance(by: 5 * 60)
            try await eventually { try push.received().count == 4 }
            // Answered is not yet recorded: the clock moves once the runner has stored every outcome.
            try await server.app.jobsCaughtUp()
            #expect(
                try await PushRoutesTests.devices(client, child.token).map(\.name).sorted() == [
                    "busy", "flaky", "refusing",
                ])

            // 29 s on: the 500 was retried after 10 s, the 429 waits for its 30 s.
            server.clock.advance(by: 29)
            try await eventually { try push.received(by: "flaky").map(\.status) == [500, 201] }
            try await server.app.jobsCaughtUp()
            #expect(try push.received(by: "busy").map(\.status) == [429], "not before Retry-After")
            server.clock.advance(by: 1)
            try await eventually { try push.received(by: "busy").map(\.status) == [429, 201] }
            try await server.app.jobsCaughtUp()
            server.clock.advance(by: 3600)
            try await server.app.jobsCaughtUp()
            #expect(try push.received(by: "gone").map(\.status) == [410])
            #expect(try push.received(by: "refusing").map(\.status) == [413], "a refusal is not retried")
            #expect(try push.received().allSatisfy { $0.error == nil && $0.payload?.kind == .due })
            let jobs = try await Self.pushJobs(server)
            #expect(jobs.filter { $0.status == .failed }.count == 1)
            #expect(jobs.first { $0.status == .failed }?.lastError?.contains("413") == true)
            #expect(jobs.filter { $0.status == .done }.count == 3)
        }
    }

    @Test(arguments: Engine.available)
    func aKindTurnedOffIsNotPushedAndAPushThatStoppedMatteringIsNotSent(engine: Engine) async throws {
        let script: [String: [PushServiceStandIn.Answer]] = ["late": [.init(status: 503, retryAfter: "120")]]
        try await Self.withServer(engine, devices: ["phone", "late"], script: script) { server, client, push in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            let phone = try await Self.subscribe(client, child, push, "phone")
            _ = try await Self.subscribe(client, child, push, "late", kinds: ["before_1"])
            _ = try await FamilyNoticesTests.remind(client, server, parent, family, for: child.userID, in: 10)
            server.clock.advance(by: 7 * 60)
            try await eventually { try Self.kinds(push, "phone") == [.before3] }
            let changed = try await client.call(
                .patch, "/v1/push/subscriptions/\(phone.id)", body: WebPushDeviceUpdate(kinds: ["due"]),
                token: child.token)
            #expect(changed.status == .ok)
            server.clock.advance(by: 2 * 60)
            // The late device's before_1 is answered 503 "come back in 2 minutes": by then it is due.
            try await eventually { try push.received(by: "late").map(\.status) == [503] }
            try await server.app.jobsCaughtUp()
            server.clock.advance(by: 60)
            try await eventually { try Self.kinds(push, "phone") == [.before3, .due] }
            server.clock.advance(by: 60)
            try await server.app.jobsCaughtUp()
            #expect(try Self.kinds(push, "phone") == [.before3, .due], "before_2 and before_1 were turned off")
            #expect(try push.received(by: "late").count == 1, "a before-due push whose due time passed is not sent")
            #expect(try await Self.pushJobs(server).allSatisfy { $0.status == .done })
            #expect(try await FamilyNoticesTests.inbox(client, child).notices.count == 4, "the inbox has them all")
        }
    }

    @Test(arguments: Engine.available)
    func aNoticeTooLongForOneMessageIsShortenedToFit(engine: Engine) async throws {
        try await Self.withServer(engine, devices: ["phone"]) { server, client, push in
            let (_, child, family) = try await FamilyCalls.parentAndChild(client, server)
            _ = try await Self.subscribe(client, child, push, "phone")
            // Longer than any reminder makes today: a notice stored by another version, say.
            let title = String(repeating: "Arroser les tomates du jardin ", count: 200)
            let now = server.clock.now.epochMillis
            let notice = NoticeRow(
                id: UUID().lowercased, userID: child.userID, familyID: family.id.lowercased,
                reminderID: UUID().lowercased,
                occurrence: now, kind: NoticeKind.due.rawValue, title: title, body: "Due now.", dueAt: now,
                deliveredAt: now,
                late: 0, readAt: nil, seq: 1_000_000)
            let channel = FamilyNoticePushes(ids: server.config.ids, clock: server.config.clock)
            try await server.app.database.transaction { sql in
                #expect(try await NoticeTables(sql: sql).insert(notice))
                try await channel.delivered([notice], sql: sql)
            }
            try await server.app.jobsCaughtUp()
            let message = try #require(try push.received(by: "phone").first)
            #expect(message.error == nil, "\(message.error ?? "")")
            #expect(message.bytes <= 4096)
            let payload = try #require(message.payload)
            #expect(payload.title.hasSuffix("…") && title.hasPrefix(String(payload.title.dropLast())))
            #expect(payload.body == "Due now.")
        }
    }

    @Test(arguments: Engine.available)
    func anEndpointWhoseNameNowLeadsInsideIsForgottenWithoutASend(engine: Engine) async throws {
        try await Self.withServer(
            engine, devices: ["phone"],
            configure: {
                Self.configure(&$0)
                $0.push.resolve = { host in host == "push.example.com" ? [[10, 0, 0, 7]] : [] }
            }
        ) { server, client, push in
            let (parent, child, family) = try await FamilyCalls.parentAndChild(client, server)
            var rebound = try push.subscription("phone", kinds: ["due"])
            rebound.endpoint = "https://push.example.com/wpush/abc"
            #expect(try await PushRoutesTests.subscribe(client, child.token, rebound).status == .created)
            _ = try await FamilyNoticesTests.remind(client, server, parent, family, for: child.userID, in: 5)
            server.clock.advance(by: 5 * 60)
            try await eventually { try await PushRoutesTests.devices(client, child.token).isEmpty }
            try await server.app.jobsCaughtUp()
            let job = try #require(try await Self.pushJobs(server).first)
            #expect(job.status == .failed && job.lastError?.contains("10.0.0.7, a private address") == true, "\(job)")
            #expect(try push.received().isEmpty)
        }
    }
}
