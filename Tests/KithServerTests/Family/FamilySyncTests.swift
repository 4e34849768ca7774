import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Families as a sync scope (docs/family.md): the membership table says who reads `family:<id>`,
/// a member who joins gets what is already there, one who leaves gets nothing more and is told to
/// drop it, and nobody outside writes into it.
@Suite("Family sync scope")
struct FamilySyncTests {
    static func reminder(_ person: inout FamilyPerson.Device, _ family: FamilyDTO, for assignee: String, due: Date)
        -> Mutation
    {
        person.mutation(
            UUID(), .upsert,
            [
                "title": .string("Feed the cat"), "dueAt": .string(WireCoding.formatTimestamp(due)),
                "assigneeId": .string(assignee), "creatorId": .string(person.userID),
                "createdAt": .string(WireCoding.formatTimestamp(due.addingTimeInterval(-86_400))),
                "status": .string("pending"),
            ],
            scope: family.scope, entity: FamilyEntities.reminder.name)
    }

    @Test(arguments: Engine.available)
    func aNewMemberReceivesWhatIsThereAndALeavingOneIsToldToDropIt(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let marie = try await FamilyPerson.signUp("marie@example.com", client, server)
            var irene = try await FamilyPerson.signUp("irene@example.com", client, server)
            let family = try await FamilyCalls.create(client, marie)
            // Irène's device has synced its own records before joining: it has a cursor.
            var ireneDevice = irene.device
            _ = try await SyncAPITests.push(
                client, ireneDevice, [ireneDevice.mutation(UUID(), .upsert, ["text": .string("mine")])])
            let before = try await SyncAPITests.pull(client, irene.device)

            var marieDevice = marie.device
            let due = server.clock.now.addingTimeInterval(86_400)
            let early = try await SyncAPITests.push(
                client, marieDevice, [Self.reminder(&marieDevice, family, for: marie.userID, due: due)])
            #expect(early.results.map(\.status) == [.applied])
            #expect(
                try await FamilyCalls.join(
                    client, irene, try await FamilyCalls.code(client, marie, .child), name: "Irène"
                ).status == .ok)

            let after = try await SyncAPITests.pull(client, irene.device, cursor: before.cursor)
            let entities = after.changes.filter { $0.scope == family.scope }.map(\.entity)
            #expect(entities.filter { $0 == FamilyEntities.member.name }.count == 2, "both members")
            #expect(
                entities.contains(FamilyEntities.info.name) && entities.contains(FamilyEntities.reminder.name),
                "and what was there before")
            #expect(after.gone == nil)

            // Removed: the next pull says the scope is gone and carries nothing more of it.
            _ = try await client.call(.delete, "/v1/family/members/\(irene.userID)", token: marie.token)
            _ = try await SyncAPITests.push(
                client, marieDevice, [Self.reminder(&marieDevice, family, for: marie.userID, due: due)])
            let removed = try await SyncAPITests.pull(client, irene.device, cursor: after.cursor)
            #expect(removed.gone == [family.scope])
            #expect(removed.changes.allSatisfy { $0.scope != family.scope })
            #expect(try await SyncAPITests.pull(client, irene.device, cursor: removed.cursor).gone == nil, "said once")
            let fromOutside = try await SyncAPITests.push(
                client, irene.device, [Self.reminder(&ireneDevice, family, for: irene.userID, due: due)])
            #expect(fromOutside.results.map(\.code) == ["forbidden"])
            irene = try await irene.signedInAgain(client, server)
            #expect(try await SyncAPITests.pull(client, irene.device).changes.allSatisfy { $0.scope != family.scope })
        }
    }

    @Test(arguments: Engine.available)
    func membersAndTheFamilyAreTheServersToWrite(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, irene, family) = try await FamilyCalls.parentAndChild(client, server)
            let changes = try await SyncAPITests.pull(client, irene.device).changes
            let me = try #require(
                changes.first {
                    $0.entity == FamilyEntities.member.name && $0.fields["userId"]?.stringValue == irene.userID
                })
            var device = irene.device
            // A child who writes "parent" into their own member record changes nothing.
            let pushed = try await SyncAPITests.push(
                client, device,
                [
                    device.mutation(
                        me.id, .upsert, ["role": .string("parent")], scope: family.scope,
                        entity: FamilyEntities.member.name),
                    device.mutation(
                        UUID(), .upsert, ["name": .string("Mine")], scope: family.scope,
                        entity: FamilyEntities.info.name),
                ])
            #expect(pushed.results.map(\.code) == ["forbidden", "forbidden"])
            #expect(
                try await client.call(.get, "/v1/family", token: marie.token).decode(FamilyDTO.self).members.map(\.role)
                    == [.parent, .child])
        }
    }

    @Test(arguments: Engine.available)
    func twoDevicesCompletingOneOccurrenceOfflineMoveItOnce(_ engine: Engine) async throws {
        try await TestServer.withRouter(engine) { server, client in
            let (marie, irene, family) = try await FamilyCalls.parentAndChild(client, server)
            let paris = try #require(TimeZone(identifier: "Europe/Paris"))
            let start = LocalDate(server.clock.now, in: paris).adding(days: 1)
            let recurrence = try Recurrence.weekly(
                [.monday, .wednesday], interval: 1, start: start, time: try #require(LocalTime("07:30")),
                timeZone: paris
            ).get()
            let first = try #require(recurrence.next(after: server.clock.now))
            let second = try #require(recurrence.next(after: first))
            var fields = FamilyRuleTable.reminder(
                title: "Piano", due: first, assignee: irene.userID, creator: marie.userID, now: server.clock.now)
            fields["repeatDays"] = .string("MO,WE")
            fields["repeatInterval"] = .int(1)
            fields["repeatStart"] = .string(start.description)
            fields["repeatTime"] = .string("07:30")
            var marieDevice = marie.device
            var ireneDevice = irene.device
            let id = UUID()
            let creation = marieDevice.mutation(
                id, .upsert, fields, scope: family.scope, entity: FamilyEntities.reminder.name)
            let made = try await SyncAPITests.push(client, marieDevice, [creation])
            #expect(made.results.map(\.status) == [.applied], "\(made.results)")
            _ = ireneDevice.clock.receive(creation.hlc, now: ireneDevice.now)  // Irène's phone pulled it

            // Both complete the first occurrence, neither having seen the other's.
            func completion(_ device: inout SyncAPITests.Device) -> Mutation {
                device.mutation(
                    id, .upsert,
                    [
                        "dueAt": .string(WireCoding.formatTimestamp(second)), "completedBy": .string(device.userID),
                        "completedAt": .string(WireCoding.formatTimestamp(server.clock.now)),
                    ],
                    scope: family.scope, entity: FamilyEntities.reminder.name)
            }
            let byIrene = try await SyncAPITests.push(client, ireneDevice, [completion(&ireneDevice)])
            let byMarie = try await SyncAPITests.push(client, marieDevice, [completion(&marieDevice)])
            #expect(byIrene.results.map(\.status) == [.applied] && byMarie.results.map(\.status) == [.applied])
            let stored = try await SyncAPITests.pull(client, marie.device).changes.last { $0.id == id }
            #expect(
                stored?.fields["dueAt"]?.stringValue == WireCoding.formatTimestamp(second), "the next occurrence, once")
            #expect(stored?.fields["status"]?.stringValue == "pending", "a repeating reminder stays")
            // Skipping an occurrence is not completing one.
            let third = try #require(recurrence.next(after: second))
            let skip = try await SyncAPITests.push(
                client, ireneDevice,
                [
                    ireneDevice.mutation(
                        id, .upsert,
                        [
                            "dueAt": .string(WireCoding.formatTimestamp(recurrence.next(after: third)!)),
                            "completedBy": .string(irene.userID),
                            "completedAt": .string(WireCoding.formatTimestamp(server.clock.now)),
                        ],
                        scope: family.scope, entity: FamilyEntities.reminder.name)
                ])
            #expect(skip.results.first?.field == "dueAt")
        }
    }

    @Test(.enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
    func twoServersOnOneDatabaseAgreeAtOnceOnWhoIsAMember() async throws {
        try await TestServer.withLiveServer(.postgres) { first, _, firstClient in
            try await TestServer.withLiveServer(.postgres, sharedDatabaseURL: first.config.databaseURL) {
                _, _, secondClient in
                let (marie, irene, family) = try await FamilyCalls.parentAndChild(firstClient, first)
                // On the other server at once: Irène reads the family, and once removed there, no longer here.
                let seen = try await SyncAPITests.pull(secondClient, irene.device)
                #expect(seen.changes.contains { $0.scope == family.scope })
                _ = try await secondClient.call(.delete, "/v1/family/members/\(irene.userID)", token: marie.token)
                let gone = try await SyncAPITests.pull(firstClient, irene.device, cursor: seen.cursor)
                #expect(gone.gone == [family.scope])
            }
        }
    }
}

extension FamilyPerson {
    typealias Device = SyncAPITests.Device
}

/// The live socket follows a family joined or left without reconnecting.
@Suite("Family live socket")
struct FamilyLiveTests {
    /// Messages up to and including the first one of `scope` at `seq` or later (nudges are hints:
    /// others may come between, and on PostgreSQL a nudge can arrive twice).
    static func messages(_ socket: LiveTestSocket, until scope: String, reaches seq: Int64) async -> [LiveMessage] {
        var seen: [LiveMessage] = []
        while seen.count < 10, let message = await socket.nextMessage() {
            seen.append(message)
            if message.scope == scope, (message.seq ?? 0) >= seq { return seen }
        }
        Issue.record("no nudge of \(scope) at \(seq) or later: \(seen)")
        return seen
    }

    /// The sequence value of record `id`'s latest change, as `device` pulls it.
    static func seq(of id: UUID, _ client: any TestClientProtocol, _ device: SyncAPITests.Device) async throws -> Int64
    {
        try #require(try await SyncAPITests.pull(client, device).changes.last { $0.id == id }?.seq)
    }

    @Test(arguments: Engine.available)
    func aSocketOpenBeforeJoiningHearsTheFamilyAfterAndNotAfterLeaving(_ engine: Engine) async throws {
        try await TestServer.withLiveServer(engine) { server, port, client in
            let marie = try await FamilyPerson.signUp("marie@example.com", client, server)
            let irene = try await FamilyPerson.signUp("irene@example.com", client, server)
            let family = try await FamilyCalls.create(client, marie)
            let socket = try await LiveTestSocket.open(port: port, token: irene.token)
            #expect(await socket.nextMessage() == .ready)
            let own = "user:\(irene.userID)"

            #expect(
                try await FamilyCalls.join(client, irene, try await FamilyCalls.code(client, marie, .child)).status
                    == .ok)
            var marieDevice = marie.device
            let due = server.clock.now.addingTimeInterval(86_400)
            let forIrene = FamilySyncTests.reminder(&marieDevice, family, for: irene.userID, due: due)
            _ = try await SyncAPITests.push(client, marieDevice, [forIrene])
            // Joining nudged her own scope, so the socket followed the family: no reconnect.
            let afterJoining = await Self.messages(
                socket, until: family.scope, reaches: try await Self.seq(of: forIrene.id, client, marie.device))
            #expect(afterJoining.contains { $0.scope == own }, "a nudge on joining")

            #expect(try await client.call(.post, "/v1/family/leave", token: irene.token).status == .noContent)
            let forMarie = FamilySyncTests.reminder(&marieDevice, family, for: marie.userID, due: due)
            _ = try await SyncAPITests.push(client, marieDevice, [forMarie])
            let afterLeaving = try await Self.seq(of: forMarie.id, client, marie.device)
            var ireneDevice = irene.device
            let year = ireneDevice.mutation(
                UUID(), .upsert,
                ["name": .string("2027"), "createdAt": .string(WireCoding.formatTimestamp(server.clock.now))],
                entity: OutreachEntities.year.name)
            #expect(try await SyncAPITests.push(client, ireneDevice, [year]).results.map(\.status) == [.applied])
            let heard = await Self.messages(
                socket, until: own, reaches: try await Self.seq(of: year.id, client, irene.device))
            #expect(
                !heard.contains { $0.scope == family.scope && ($0.seq ?? 0) >= afterLeaving },
                "nothing of the family after leaving")
            socket.close()
        }
    }

    /// Joining through one server reaches a socket on another (the membership nudge crosses by
    /// NOTIFY), and writes to the person's own scope still reach it as nudges.
    @Test(.enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
    func aSocketOnAnotherServerFollowsAFamilyJoinedThroughThisOne() async throws {
        try await TestServer.withLiveServer(.postgres) { first, _, firstClient in
            try await TestServer.withLiveServer(.postgres, sharedDatabaseURL: first.config.databaseURL) {
                second, secondPort, secondClient in
                let marie = try await FamilyPerson.signUp("marie@example.com", firstClient, first)
                let irene = try await FamilyPerson.signUp("irene@example.com", firstClient, first)
                let family = try await FamilyCalls.create(firstClient, marie)
                let socket = try await LiveTestSocket.open(port: secondPort, token: irene.token)
                #expect(await socket.nextMessage() == .ready)

                var ireneDevice = irene.device
                let year = ireneDevice.mutation(
                    UUID(), .upsert,
                    ["name": .string("2027"), "createdAt": .string(WireCoding.formatTimestamp(second.clock.now))],
                    entity: OutreachEntities.year.name)
                #expect(
                    try await SyncAPITests.push(firstClient, ireneDevice, [year]).results.map(\.status) == [.applied])
                let own = "user:\(irene.userID)"
                _ = await Self.messages(
                    socket, until: own, reaches: try await Self.seq(of: year.id, secondClient, irene.device))

                let code = try await FamilyCalls.code(firstClient, marie, .child)
                #expect(try await FamilyCalls.join(firstClient, irene, code).status == .ok)
                var marieDevice = marie.device
                // Reminders pushed until the socket hears the family: it follows it once it has read
                // its scopes again, which the join's nudge set off on the other server.
                var heard: [LiveMessage] = []
                for _ in 0..<20 where !heard.contains(where: { $0.scope == family.scope }) {
                    let reminder = FamilySyncTests.reminder(
                        &marieDevice, family, for: irene.userID, due: first.clock.now.addingTimeInterval(86_400))
                    _ = try await SyncAPITests.push(firstClient, marieDevice, [reminder])
                    heard += await socket.messages(for: .milliseconds(250))
                }
                #expect(heard.contains { $0.scope == own }, "a nudge of her own scope on joining")
                #expect(heard.contains { $0.scope == family.scope }, "the family's changes, without reconnecting")
                #expect(
                    !heard.contains { $0.scope?.hasPrefix("membership:") == true },
                    "membership nudges stay on the server")
                socket.close()
            }
        }
    }
}
