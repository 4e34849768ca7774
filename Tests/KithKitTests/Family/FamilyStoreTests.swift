import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithKit

/// The Family app on a device: the family from synced records, reminders written offline under
/// the same rules the server runs, and what two devices' changes become after a sync.
@Suite("Family store")
@MainActor
struct FamilyStoreTests {
    typealias F = FamilyFixture
    nonisolated static let tomorrow = F.noon.addingTimeInterval(86_400)

    @Test func theFamilyComesFromSyncedRecordsAndNothingIsWrittenBeforeIt() async throws {
        let store = try F.device(F.cleo)
        let family = FamilyStore(store: store)
        #expect(family.family == nil)
        let early = await expectKithError { try family.addReminder(title: "Feed the cat", dueAt: Self.tomorrow) }
        #expect(early?.code == .notInFamily)
        #expect(family.pendingChanges == 0)

        let arrived = ObservedChange { _ = family.family }
        try F.join(store)
        #expect(await arrived.happened(), "a pull shows the family without the store writing anything")
        let known = try #require(family.family)
        #expect(known.name == "Lovelaces" && known.timeZone == F.berlin && known.scope == F.scope)
        #expect(known.members.map(\.displayName) == ["Ada", "Ben", "Cleo"], "parents first")
        #expect(known.me == F.cleo.lowercased && known.myRole == .child)
    }

    @Test func aChildAssignsRemindersOnlyToThemselvesAParentToAnyone() async throws {
        let cleo = try F.member(F.cleo)
        let refused = await expectKithError {
            try cleo.addReminder(title: "Buy me a bike", dueAt: Self.tomorrow, assignee: F.ada.lowercased)
        }
        #expect(refused?.identifier == "children_assign_themselves")
        #expect(refused?.userMessage == "A child can create reminders only for themselves.")
        #expect(refused?.field == "assigneeId")
        #expect(cleo.reminders.isEmpty && cleo.pendingChanges == 0, "a refusal writes nothing")

        let own = try cleo.addReminder(title: "  Homework ", dueAt: Self.tomorrow, items: ["Maths", "French"])
        #expect(own.title == "Homework" && own.assigneeId == F.cleo.lowercased && own.creatorId == F.cleo.lowercased)
        #expect(own.status == .pending && own.checklist.map(\.text) == ["Maths", "French"])
        let record = try #require(try cleo.store.record(FamilyEntities.reminder.name, id: own.id))
        #expect(record.string("createdAt") == WireCoding.formatTimestamp(F.noon))
        #expect(cleo.reminders == [own] && cleo.pendingChanges == 3, "the reminder and two items wait to be synced")
        #expect(await expectKithError { try cleo.edit(own.id, assignee: F.ben.lowercased) }?.field == "assigneeId")

        let ada = try F.member(F.ada)
        let forCleo = try ada.addReminder(title: "Pack the gym bag", dueAt: Self.tomorrow, assignee: F.cleo.lowercased)
        #expect(forCleo.assigneeId == F.cleo.lowercased)
        let stranger = await expectKithError {
            try ada.addReminder(title: "Walk", dueAt: Self.tomorrow, assignee: UUID().lowercased)
        }
        #expect(stranger?.field == "assigneeId" && stranger?.userMessage == "A reminder is for a member of the family.")
        #expect(
            await expectKithError { try ada.addReminder(title: "Too late", dueAt: F.noon.addingTimeInterval(-60)) }?
                .field == "dueAt")
    }

    @Test func aCompletedReminderIsReadOnly() async throws {
        let clock = TestClock(F.noon)
        let store = try F.device(F.cleo, now: { clock.now })
        try F.join(store)
        let cleo = FamilyStore(store: store)
        let reminder = try cleo.addReminder(title: "Homework", dueAt: Self.tomorrow, items: ["Maths"])
        let item = try #require(reminder.checklist.first)

        clock.advance(by: 600)
        let done = try cleo.complete(reminder.id, evenIfUnticked: true)
        #expect(done.status == .completed && done.completedBy == F.cleo.lowercased)
        #expect(done.completedAt == F.noon.addingTimeInterval(600))
        #expect(
            await expectKithError { try cleo.edit(reminder.id, title: "Homework!") }?.userMessage
                == "A completed reminder can't be changed.")
        #expect(await expectKithError { try cleo.setItem(item.id, of: reminder.id, done: true) } != nil)
        #expect(await expectKithError { try cleo.complete(reminder.id) } != nil)
        #expect(try cleo.reminder(reminder.id) == done, "nothing changed")
    }

    @Test func aParentWhoNeitherMadeNorHoldsAReminderEditsItButDoesNotCompleteIt() async throws {
        let server = await Self.familyServer()
        let (ada, adaSync) = try Self.synced(F.ada, server)
        let (ben, benSync) = try Self.synced(F.ben, server)
        try await adaSync.sync()
        let cleos = try ada.addReminder(title: "Tidy up", dueAt: Self.tomorrow, assignee: F.cleo.lowercased)
        try await adaSync.sync()
        try await benSync.sync()
        #expect(try ben.edit(cleos.id, title: "Tidy your room").title == "Tidy your room")
        let refused = await expectKithError { try ben.complete(cleos.id) }
        #expect(refused?.userMessage == "Only the creator or the assignee can complete this reminder.")
    }

    @Test func completingARepeatingReminderMakesTheNextOccurrenceDue() async throws {
        let ada = try F.member(F.ada)
        let reminder = try ada.addReminder(
            title: "Bins out", assignee: F.cleo.lowercased, items: ["Paper", "Glass"], schedule: Self.binsDays)
        #expect(reminder.dueAt == Self.utc("2026-11-25T06:30:00Z"), "its first occurrence")
        #expect(reminder.repeatRule == "FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,WE;WKST=MO")
        try ada.setItem(reminder.checklist[0].id, of: reminder.id, done: true)

        let once = try ada.complete(reminder.id, evenIfUnticked: true)
        #expect(once.dueAt == Self.utc("2026-11-30T06:30:00Z") && once.status == .pending)
        #expect(once.checklist.map(\.done) == [false, false], "the next occurrence starts with its checklist unticked")
        #expect(once.completedBy == F.ada.lowercased)
        #expect(try ada.complete(reminder.id, evenIfUnticked: true).dueAt == Self.utc("2026-12-02T06:30:00Z"))
    }

    @Test func theCompleterUndoesWithinThirtySecondsAndNoOneElseDoes() async throws {
        let clock = TestClock(F.noon)
        let server = await Self.familyServer()
        let (ada, adaSync) = try Self.synced(F.ada, server, now: { clock.now })
        let (cleo, cleoSync) = try Self.synced(F.cleo, server, now: { clock.now })
        try await adaSync.sync()
        let reminder = try ada.addReminder(title: "Homework", dueAt: Self.tomorrow, assignee: F.cleo.lowercased)
        try await adaSync.sync()
        try await cleoSync.sync()

        let done = try cleo.complete(reminder.id)
        #expect(done.status == .completed && done.completedDueAt == Self.tomorrow)
        try await cleoSync.sync()
        try await adaSync.sync()
        clock.advance(by: 10)
        let notHers = await expectKithError { try ada.undoCompletion(reminder.id) }
        #expect(notHers?.identifier == "not_allowed", "the creator did not complete it")
        #expect(notHers?.userMessage == "Only the person who completed this reminder can undo it.")

        let undone = try cleo.undoCompletion(reminder.id)
        #expect(undone.status == .pending && undone.completedBy == nil && undone.completedAt == nil)
        #expect(undone.dueAt == Self.tomorrow)
        #expect(cleo.upcomingNotices.contains { $0.reminder == reminder.id && $0.kind == .due }, "its notices are back")
        let nothing = await expectKithError { try cleo.undoCompletion(reminder.id) }
        #expect(nothing?.userMessage == "This reminder has no completion to undo.")
        try await cleoSync.sync()
        try await adaSync.sync()
        #expect(try ada.reminder(reminder.id)?.status == .pending, "the parent's device pulled the undo")
        #expect(try ada.edit(reminder.id, title: "Homework, all of it").status == .pending, "changeable again")

        try cleo.complete(reminder.id)
        clock.advance(by: 31)
        let late = await expectKithError { try cleo.undoCompletion(reminder.id) }
        #expect(late?.identifier == "undo_expired" && late?.userMessage == "A completion can be undone only within 30 seconds.")
        #expect(try cleo.reminder(reminder.id)?.status == .completed, "nothing changed")
    }

    @Test func undoingARepeatsCompletionMakesTheOccurrenceDoneDueAgain() throws {
        let ada = try F.member(F.ada)
        let reminder = try ada.addReminder(title: "Bins out", assignee: F.cleo.lowercased, schedule: Self.binsDays)
        let moved = try ada.complete(reminder.id)
        #expect(moved.dueAt == Self.utc("2026-11-30T06:30:00Z") && moved.completedDueAt == reminder.dueAt)
        let back = try ada.undoCompletion(reminder.id)
        #expect(back.dueAt == Self.utc("2026-11-25T06:30:00Z") && back.status == .pending && back.completedBy == nil)
        #expect(ada.pendingChanges > 0, "queued for sync")
    }

    @Test func twoDevicesCompletingTheSameOccurrenceOfflineMoveItOnce() async throws {
        let server = await Self.familyServer()
        let (ada, adaSync) = try Self.synced(F.ada, server)
        let (cleo, cleoSync) = try Self.synced(F.cleo, server)
        try await adaSync.sync()
        try await cleoSync.sync()
        let reminder = try ada.addReminder(title: "Bins out", assignee: F.cleo.lowercased, schedule: Self.binsDays)
        try await adaSync.sync()
        try await cleoSync.sync()
        #expect(cleo.reminders.map(\.id) == [reminder.id])

        // Both complete Wednesday's occurrence before either syncs.
        try ada.complete(reminder.id)
        try cleo.complete(reminder.id)
        try await adaSync.sync()
        try await cleoSync.sync()
        try await adaSync.sync()
        for device in [ada, cleo] {
            let moved = try #require(try device.reminder(reminder.id))
            #expect(moved.dueAt == Self.utc("2026-11-30T06:30:00Z"), "Monday's, not Wednesday's after")
            #expect(moved.status == .pending)
        }
    }

    @Test func twoDevicesTickingDifferentItemsBothKeepBothTicks() async throws {
        let server = await Self.familyServer()
        let (ada, adaSync) = try Self.synced(F.ada, server)
        let (cleo, cleoSync) = try Self.synced(F.cleo, server)
        let (ben, benSync) = try Self.synced(F.ben, server)
        try await adaSync.sync()
        let list = try ada.addReminder(
            title: "Shopping", dueAt: Self.tomorrow, assignee: F.cleo.lowercased, items: ["Milk", "Bread", "Eggs"])
        try await adaSync.sync()
        try await cleoSync.sync()
        let milk = list.checklist[0].id
        let bread = list.checklist[1].id

        try ada.setItem(milk, of: list.id, done: true)
        try cleo.setItem(bread, of: list.id, done: true)
        try await cleoSync.sync()
        try await adaSync.sync()
        try await cleoSync.sync()
        try await benSync.sync()
        for device in [ada, cleo] {
            #expect(try device.reminder(list.id)?.checklist.map(\.done) == [true, true, false])
        }

        // Removing and adding lines goes the same way; they are the parents' (a child ticks them).
        let childRemoves = await expectKithError { try cleo.removeItem(list.checklist[2].id, from: list.id) }
        #expect(childRemoves?.identifier == "not_allowed", "the list is what a parent asked")
        try ben.removeItem(list.checklist[2].id, from: list.id)
        let longer = try ada.addItem("Butter", to: list.id)
        #expect(longer.checklist.last?.position == 3)
        try await benSync.sync()
        try await adaSync.sync()
        #expect(try ada.reminder(list.id)?.checklist.map(\.text) == ["Milk", "Bread", "Butter"])
    }

    @Test func deletingIsForTheCreatorOrAParentAndTakesTheChecklist() async throws {
        let server = await Self.familyServer()
        let (ada, adaSync) = try Self.synced(F.ada, server)
        let (cleo, cleoSync) = try Self.synced(F.cleo, server)
        try await adaSync.sync()
        let reminder = try ada.addReminder(
            title: "Dentist", dueAt: Self.tomorrow, assignee: F.cleo.lowercased, items: ["Card"])
        try await adaSync.sync()
        try await cleoSync.sync()

        let refused = await expectKithError { try cleo.delete(reminder.id) }
        #expect(refused?.userMessage == "Only the reminder's creator or a parent can delete it.")
        #expect(cleo.reminders.count == 1)
        try ada.delete(reminder.id)
        #expect(ada.reminders.isEmpty)
        #expect(try ada.store.records(FamilyEntities.checklistItem.name).isEmpty, "the checklist went with it")
        try await adaSync.sync()
        try await cleoSync.sync()
        #expect(cleo.reminders.isEmpty)
        #expect(try cleo.store.records(FamilyEntities.checklistItem.name).isEmpty)
    }

    @Test func aViewIsOfferedOnlyWhatTheRulesWouldAccept() async throws {
        let server = await Self.familyServer()
        let (ada, adaSync) = try Self.synced(F.ada, server)
        let (cleo, cleoSync) = try Self.synced(F.cleo, server)
        try await adaSync.sync()
        let asked = try ada.addReminder(
            title: "Dentist", dueAt: Self.tomorrow, assignee: F.cleo.lowercased, items: ["Card"])
        try await adaSync.sync()
        try await cleoSync.sync()

        let forCleo = try #require(try cleo.permissions(for: asked.id))
        #expect(forCleo.complete && forCleo.tick && forCleo.setPlace, "the assignee does, ticks and sets the place")
        #expect(!forCleo.editDetails && !forCleo.delete, "not what a parent asked of her")
        #expect(await expectKithError { try cleo.delete(asked.id) } != nil, "what is not offered is refused")
        let forAda = try #require(try ada.permissions(for: asked.id))
        #expect(forAda.editDetails && forAda.delete && forAda.complete)
        #expect(!forAda.undo, "nothing to undo")

        _ = try cleo.complete(asked.id, evenIfUnticked: true)
        let done = try #require(try cleo.permissions(for: asked.id))
        #expect(done.undo && !done.complete && !done.tick, "a completed reminder offers only its undo")
        #expect(try cleo.permissions(for: UUID()) == nil)
    }

    @Test func filtersPickByStatusAssigneeAndDueTimeDueFirst() async throws {
        let ada = try F.member(F.ada)
        let day: TimeInterval = 86_400
        let cleoLater = try ada.addReminder(title: "Cleo later", dueAt: F.noon + 5 * day, assignee: F.cleo.lowercased)
        let mine = try ada.addReminder(title: "Mine", dueAt: F.noon + 1 * day)
        let cleoSoon = try ada.addReminder(title: "Cleo soon", dueAt: F.noon + 2 * day, assignee: F.cleo.lowercased)
        let bens = try ada.addReminder(title: "Ben's", dueAt: F.noon + 3 * day, assignee: F.ben.lowercased)
        try ada.complete(mine.id)
        #expect(ada.reminders.map(\.title) == ["Mine", "Cleo soon", "Ben's", "Cleo later"], "due first")

        ada.filter = ReminderFilter(assignee: .me)
        #expect(ada.reminders.map(\.id) == [mine.id])
        ada.filter = ReminderFilter(status: .pending, assignee: .others)
        #expect(ada.reminders.map(\.id) == [cleoSoon.id, bens.id, cleoLater.id])
        ada.filter = ReminderFilter(assignee: .member(F.cleo.uuidString))
        #expect(ada.reminders.map(\.id) == [cleoSoon.id, cleoLater.id], "a member's id in any case")
        ada.filter = ReminderFilter(status: .completed)
        #expect(ada.reminders.map(\.id) == [mine.id])
        ada.filter = ReminderFilter(from: F.noon + 2 * day, until: F.noon + 5 * day)
        #expect(ada.reminders.map(\.id) == [cleoSoon.id, bens.id], "from inclusive, until exclusive")
    }

    @Test func leavingTheFamilyEmptiesTheDevice() async throws {
        let server = await Self.familyServer()
        let (cleo, cleoSync) = try Self.synced(F.cleo, server)
        try await cleoSync.sync()
        try cleo.addReminder(title: "Homework", dueAt: Self.tomorrow)
        try await cleoSync.sync()
        #expect(cleo.family != nil && cleo.reminders.count == 1)

        await server.revokeAccess(to: F.scope)
        let left = ObservedChange { _ = cleo.family }
        try await cleoSync.sync()
        #expect(await left.happened())
        #expect(cleo.family == nil && cleo.reminders.isEmpty)
    }

    /// Mondays and Wednesdays at 07:30 in Berlin from Wednesday 2026-11-25.
    nonisolated static let binsDays = ReminderSchedule(
        weekdays: [.monday, .wednesday], interval: 1, start: LocalDate(year: 2026, month: 11, day: 25)!,
        time: LocalTime(hour: 7, minute: 30)!)

    /// A fake server holding the family's member records, as the real one mirrors them.
    static func familyServer() async -> FakeSyncService {
        let server = FakeSyncService(userID: nil)
        for record in F.serverRecords() { await server.serverWrite(record) }
        return server
    }

    static func synced(_ user: UUID, _ server: FakeSyncService, now: @escaping @Sendable () -> Date = { F.noon }) throws
        -> (FamilyStore, SyncEngine)
    {
        let store = try F.device(user, now: now)
        return (
            FamilyStore(store: store), SyncEngine(store: store, service: FakeSyncSession(server: server, userID: user))
        )
    }

    nonisolated static func utc(_ text: String) -> Date? { WireCoding.parseTimestamp(text) }
}
