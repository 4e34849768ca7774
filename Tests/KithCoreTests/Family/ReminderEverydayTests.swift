import Foundation
import KithCore
import Testing

/// Completing with items not ticked asks first and tells the parents what was left; the actions a
/// member is offered are the ones the rules allow; a notice knows when its reminder was completed
/// or deleted since.
@Suite("Family reminders: asking first, what is offered, stale notices")
struct ReminderEverydayTests {
    typealias R = ReminderOperationsTests
    static let family = R.family

    /// The bench's records as storage holds them, for the rules' trials.
    static func records(_ bench: OperationBench) -> [SyncRecord] {
        bench.records.flatMap { entity, byID in
            byID.map { id, fields in
                var record = SyncRecord(entity: entity, id: id, scope: family)
                record.fields = fields
                return record
            }
        }
    }

    static func groceries(_ bench: inout OperationBench, for assignee: String) throws -> FamilyReminder {
        let input = FamilyReminderInput(
            title: "Groceries", dueAt: bench.now.addingTimeInterval(3600), assigneeId: assignee,
            checklist: [.init(text: "Milk"), .init(text: "Bread"), .init(text: "Eggs")])
        return try bench.run(ReminderOperations.create(input, in: family)).0
    }

    @Test func completingWithItemsNotTickedAsksFirstAndKeepsWhatWasLeft() throws {
        var bench = R.bench(as: R.child)
        let made = try Self.groceries(&bench, for: R.child)
        let eggs = try #require(made.checklist.first { $0.text == "Eggs" })
        _ = try bench.run(ReminderOperations.setItem(eggs.id, of: made.id, done: true, in: Self.family))
        let before = bench.records
        #expect(throws: APIErrorDetail(.untickedItems, "2 items are not ticked: Milk, Bread. Complete anyway?")) {
            try bench.run(ReminderOperations.complete(made.id, in: Self.family))
        }
        #expect(bench.records == before, "asking writes nothing")
        let (done, _) = try bench.run(ReminderOperations.complete(made.id, evenIfUnticked: true, in: Self.family))
        #expect(done.status == .completed && done.completedUnticked == ["Milk", "Bread"])

        // Everything ticked: nothing to ask, and nothing left unticked is written.
        var all = R.bench(as: R.child)
        let ticked = try Self.groceries(&all, for: R.child)
        for item in ticked.checklist {
            _ = try all.run(ReminderOperations.setItem(item.id, of: ticked.id, done: true, in: Self.family))
        }
        let (clean, writes) = try all.run(ReminderOperations.complete(ticked.id, in: Self.family))
        #expect(clean.completedUnticked.isEmpty && writes.count == 1)
        #expect(ReminderOperations.untickedQuestion(["Milk"]) == "1 item is not ticked: Milk. Complete anyway?")
    }

    @Test func aLongListOfUntickedItemsIsCutToItsLimitSayingHowManyMore() throws {
        let texts = (1...40).map { "Item \($0) " + String(repeating: "x", count: 90) }
        let text = try #require(ReminderFields.untickedText(texts).stringValue)
        #expect(text.count <= ReminderFields.untickedTextLength)
        let lines = text.split(separator: "\n")
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("Item ") } && lines.last?.hasPrefix("…and ") == true)
        #expect(lines.last == "…and \(40 - (lines.count - 1)) more")
        #expect(ReminderFields.untickedText([]) == .null)
    }

    @Test func whatACompletionLeftUntickedIsWrittenOnlyWithACompletion() throws {
        var bench = R.bench(as: R.parent)
        let made = try Self.groceries(&bench, for: R.child)
        var record = SyncRecord(entity: FamilyEntities.reminder.name, id: made.id, scope: Self.family)
        record.fields = try #require(bench.records[FamilyEntities.reminder.name]?[made.id])
        let related = Dictionary(grouping: Self.records(bench), by: \.entity)
        let alone = Mutation(
            mutationId: UUID(), entity: FamilyEntities.reminder.name, id: made.id, scope: Self.family, op: .upsert,
            fields: [ReminderFields.completedUnticked: .string("Milk")], hlc: HLC(wallMillis: 1, counter: 0, node: "t"))
        let problem = FamilyRules.all.compactMap {
            $0.entity == alone.entity
                ? $0.problem(
                    with: alone, current: record, records: related,
                    context: RuleContext(now: bench.now, actor: R.parent))
                : nil
        }.first
        #expect(problem?.field == ReminderFields.completedUnticked)
    }

    @Test func whatIsOfferedIsWhatTheRulesAllow() throws {
        var bench = R.bench(as: R.parent)
        let asked = try Self.groceries(&bench, for: R.child)
        bench.actor = R.child
        let own = try bench.run(
            ReminderOperations.create(
                FamilyReminderInput(title: "Read", dueAt: bench.now.addingTimeInterval(600), assigneeId: R.child),
                in: Self.family)
        ).0
        func may(_ reminder: FamilyReminder, _ actor: String, at now: Date? = nil) -> ReminderPermissions {
            ReminderPermissions(
                reminder, records: Self.records(bench), scope: Self.family, actor: actor, now: now ?? bench.now)
        }
        let childOnAsked = may(asked, R.child)
        #expect(childOnAsked.complete && childOnAsked.tick && childOnAsked.setPlace)
        #expect(!childOnAsked.editDetails && !childOnAsked.delete, "what a parent asked is the parent's to change")
        #expect(!childOnAsked.undo && !childOnAsked.snooze, "nothing to undo; not due yet")
        let parentOnAsked = may(asked, R.parent)
        #expect(parentOnAsked.complete && parentOnAsked.editDetails && parentOnAsked.delete && parentOnAsked.tick)
        let childOnOwn = may(own, R.child)
        #expect(childOnOwn.editDetails && childOnOwn.delete && childOnOwn.complete)
        let parentOnOwn = may(own, R.parent)
        #expect(
            !parentOnOwn.complete && parentOnOwn.editDetails && parentOnOwn.delete, "a parent neither made nor does it")
        #expect(may(own, R.child, at: own.dueAt.addingTimeInterval(1)).snooze, "the assignee, once it is due")

        // Done: read-only, but its completer may undo it for 30 s.
        let done = try bench.run(ReminderOperations.complete(own.id, in: Self.family)).0
        let justNow = may(done, R.child)
        #expect(justNow.undo && !justNow.editDetails && !justNow.complete && !justNow.tick && !justNow.setPlace)
        #expect(!may(done, R.child, at: bench.now.addingTimeInterval(31)).undo, "30 s later")
        #expect(!may(done, R.parent).undo && may(done, R.parent).delete)
    }

    @Test func aNoticeKnowsItsReminderWasCompletedOrDeletedSince() throws {
        var bench = R.bench(as: R.child)
        let made = try Self.groceries(&bench, for: R.child)
        func notice(_ kind: NoticeKind, _ occurrence: Date) -> NoticeDTO {
            NoticeDTO(
                id: "1", kind: kind, title: "Groceries", body: "", reminderId: made.id.lowercased,
                occurrence: occurrence,
                dueAt: occurrence, deliveredAt: occurrence, late: false, readAt: nil, seq: 1)
        }
        let due = notice(.due, made.dueAt)
        #expect(NoticePlan.since(due, reminder: made) == nil, "it still stands")
        #expect(NoticePlan.since(due, reminder: nil) == .deleted && NoticeAftermath.deleted.words == "Deleted since")
        let done = try bench.run(ReminderOperations.complete(made.id, evenIfUnticked: true, in: Self.family)).0
        #expect(
            NoticePlan.since(due, reminder: done) == .completed && NoticeAftermath.completed.words == "Completed since")
        #expect(NoticePlan.since(notice(.before3, made.dueAt), reminder: done) == .completed)
        #expect(NoticePlan.since(notice(.completion, bench.now), reminder: nil) == nil, "a completion is not stale")
    }
}
