import Foundation
import KithCore
import Testing

/// Seed 003's rules as KithCore decides them, for every kind of writer (the server and devices run
/// this same code; issue 16's push and web tests go through it).
@Suite("Family rules")
struct FamilyRulesTests {
    static let scope = "family:5b0f6a52-0000-4000-8000-000000000001"
    static let parent = "00000000-0000-4000-8000-00000000000a"
    static let otherParent = "00000000-0000-4000-8000-00000000000b"
    static let child = "00000000-0000-4000-8000-00000000000c"
    static let otherChild = "00000000-0000-4000-8000-00000000000d"
    static let outsider = "00000000-0000-4000-8000-00000000000e"
    /// 2026-11-24T12:00:00Z
    static let now = Date(timeIntervalSince1970: 1_795_521_600)
    static let later = "2026-11-30T09:00:00.000Z"
    static let rules = FamilyRules.all

    static func record(_ entity: EntityDeclaration, _ fields: [String: JSONTree], id: UUID = UUID()) -> SyncRecord {
        var record = SyncRecord(entity: entity.name, id: id, scope: scope)
        record.fields = fields
        return record
    }

    static var family: [SyncRecord] {
        [record(FamilyEntities.info, ["name": .string("Curie"), "timeZone": .string("Europe/Paris")])]
            + [(parent, "parent"), (otherParent, "parent"), (child, "child"), (otherChild, "child")].map { user, role in
                record(
                    FamilyEntities.member,
                    ["userId": .string(user), "displayName": .string(role), "role": .string(role)])
            }
    }

    static func reminder(creator: String, assignee: String, status: String = "pending") -> [String: JSONTree] {
        [
            "title": .string("Feed the cat"), "dueAt": .string(later), "assigneeId": .string(assignee),
            "creatorId": .string(creator), "createdAt": .string("2026-11-24T11:00:00.000Z"), "status": .string(status),
        ]
    }

    /// The creator's reminder for the child, repeating on Mondays and Wednesdays at 10:00 (Paris)
    /// from Monday 30 November, due `due`.
    static func repeating(due: String) -> [String: JSONTree] {
        var fields = reminder(creator: parent, assignee: child)
        fields["repeatDays"] = .string("MO,WE")
        fields["repeatInterval"] = .int(1)
        fields["repeatStart"] = .string("2026-11-30")
        fields["repeatTime"] = .string("10:00")
        fields["dueAt"] = .string(due)
        return fields
    }

    static func problem(
        _ actor: String, _ op: Mutation.Operation = .upsert, _ fields: [String: JSONTree] = [:],
        current: SyncRecord? = nil,
        entity: EntityDeclaration = FamilyEntities.reminder, extra: [SyncRecord] = [], at time: Date = now
    ) -> APIErrorDetail? {
        let mutation = Mutation(
            mutationId: UUID(), entity: entity.name, id: current?.id ?? UUID(), scope: scope, op: op, fields: fields,
            hlc: HLC(wallMillis: 1, counter: 0, node: "t"))
        let related = Dictionary(grouping: family + extra, by: \.entity)
        let context = RuleContext(now: time, actor: actor)
        return rules.filter { $0.entity == entity.name }.lazy
            .compactMap { $0.problem(with: mutation, current: current, records: related, context: context) }.first
    }

    /// A creation by `actor`.
    static func problem(_ actor: String, _ fields: [String: JSONTree]) -> APIErrorDetail? {
        problem(actor, .upsert, fields)
    }

    @Test func creatingARemindersFollowsTheRoles() {
        #expect(
            Self.problem(Self.parent, Self.reminder(creator: Self.parent, assignee: Self.child)) == nil,
            "a parent, for a child")
        #expect(Self.problem(Self.parent, Self.reminder(creator: Self.parent, assignee: Self.otherParent)) == nil)
        #expect(
            Self.problem(Self.child, Self.reminder(creator: Self.child, assignee: Self.child)) == nil,
            "a child, for themselves")
        #expect(
            Self.problem(Self.child, Self.reminder(creator: Self.child, assignee: Self.otherChild))?.code
                == "children_assign_themselves")
        #expect(
            Self.problem(Self.child, Self.reminder(creator: Self.child, assignee: Self.parent))?.code
                == "children_assign_themselves")
        #expect(
            Self.problem(Self.outsider, Self.reminder(creator: Self.outsider, assignee: Self.outsider))?.code
                == "forbidden")
        #expect(
            Self.problem(Self.parent, Self.reminder(creator: Self.parent, assignee: Self.outsider))?.code
                == "not_a_member")
        #expect(
            Self.problem(Self.parent, Self.reminder(creator: Self.child, assignee: Self.child))?.field == "creatorId")
        var past = Self.reminder(creator: Self.parent, assignee: Self.child)
        past["dueAt"] = .string("2026-11-24T11:59:00.000Z")
        #expect(Self.problem(Self.parent, past)?.code == "due_in_past")
        #expect(
            Self.problem(Self.parent, Self.reminder(creator: Self.parent, assignee: Self.child, status: "completed"))?
                .field == "status")
    }

    @Test func whoMayChangeCompleteAndDelete() {
        let current = Self.record(FamilyEntities.reminder, Self.reminder(creator: Self.parent, assignee: Self.child))
        let rename: [String: JSONTree] = ["title": .string("Feed the cat twice")]
        // creator (parent) and another parent may edit; the child it is for and another child may not.
        for actor in [Self.parent, Self.otherParent] {
            #expect(Self.problem(actor, .upsert, rename, current: current) == nil, "\(actor) edits")
        }
        #expect(
            Self.problem(Self.child, .upsert, rename, current: current)?.code == "not_allowed", "what a parent asked")
        #expect(Self.problem(Self.otherChild, .upsert, rename, current: current)?.code == "not_allowed")
        #expect(Self.problem(Self.outsider, .upsert, rename, current: current)?.code == "forbidden")

        func completion(_ actor: String) -> [String: JSONTree] {
            [
                "status": .string("completed"), "completedAt": .string("2026-11-24T12:00:00.000Z"),
                "completedBy": .string(actor),
            ]
        }
        #expect(
            Self.problem(Self.child, .upsert, completion(Self.child), current: current) == nil, "the assignee completes"
        )
        #expect(
            Self.problem(Self.parent, .upsert, completion(Self.parent), current: current) == nil,
            "the creator completes")
        #expect(
            Self.problem(Self.otherParent, .upsert, completion(Self.otherParent), current: current)?.code
                == "not_allowed",
            "another parent may edit but not complete")
        #expect(Self.problem(Self.child, .upsert, completion(Self.parent), current: current)?.field == "completedBy")

        let done = Self.record(
            FamilyEntities.reminder, Self.reminder(creator: Self.parent, assignee: Self.child, status: "completed"))
        #expect(
            Self.problem(Self.parent, .upsert, rename, current: done)?.code == "completed", "read-only once completed")

        #expect(Self.problem(Self.parent, .delete, current: current) == nil, "the creator deletes")
        #expect(Self.problem(Self.otherParent, .delete, current: current) == nil, "a parent deletes")
        #expect(
            Self.problem(Self.child, .delete, current: current)?.code == "not_allowed", "the assignee child may not")
        let own = Self.record(FamilyEntities.reminder, Self.reminder(creator: Self.child, assignee: Self.child))
        #expect(Self.problem(Self.child, .delete, current: own) == nil, "a child deletes their own")
    }

    @Test func aRepeatingReminderIsCompletedOneOccurrenceAtATime() throws {
        let fields = Self.repeating(due: "2026-11-30T09:00:00.000Z")  // Monday 10:00 in Paris
        #expect(Self.problem(Self.parent, fields) == nil)
        let current = Self.record(FamilyEntities.reminder, fields)
        func complete(due: String) -> [String: JSONTree] {
            [
                "dueAt": .string(due), "completedAt": .string("2026-11-30T09:05:00.000Z"),
                "completedBy": .string(Self.child),
            ]
        }
        #expect(
            Self.problem(Self.child, .upsert, complete(due: "2026-12-02T09:00:00.000Z"), current: current) == nil,
            "Wednesday's occurrence is next")
        #expect(
            Self.problem(Self.child, .upsert, complete(due: "2026-11-30T09:00:00.000Z"), current: current) == nil,
            "another device already moved it: no second move")
        #expect(
            Self.problem(Self.child, .upsert, complete(due: "2026-12-07T09:00:00.000Z"), current: current)?.field
                == "dueAt",
            "skipping an occurrence is refused")

        var partial = Self.reminder(creator: Self.parent, assignee: Self.child)
        partial["repeatDays"] = .string("MO")
        #expect(Self.problem(Self.parent, partial)?.field == "repeatDays")
        var early = fields
        early["repeatStart"] = .string("2026-11-01")
        #expect(Self.problem(Self.parent, early)?.field == "repeatStart")
        var noDays = fields
        noDays["repeatDays"] = .string("XX")
        #expect(Self.problem(Self.parent, noDays)?.field == "repeatDays")
    }

    /// Daily and monthly repeats (`repeatFrequency`): a record without it is weekly, each
    /// frequency takes exactly its fields, and a completion moves to that frequency's next occurrence.
    @Test func dailyAndMonthlyRepeatsAreJudgedByTheirOwnFields() throws {
        // The second Tuesday at 10:00 (Paris) from 1 December: 8 December, then 12 January.
        var monthly = Self.reminder(creator: Self.parent, assignee: Self.child)
        monthly["repeatFrequency"] = .string("monthly")
        monthly["repeatMonthWeekday"] = .string("2TU")
        monthly["repeatInterval"] = .int(1)
        monthly["repeatStart"] = .string("2026-12-01")
        monthly["repeatTime"] = .string("10:00")
        monthly["dueAt"] = .string("2026-12-08T09:00:00.000Z")
        #expect(Self.problem(Self.parent, monthly) == nil)
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let read = try #require(try FamilyRules.recurrence(monthly, timeZone: paris).get())
        #expect(read.rrule == "FREQ=MONTHLY;INTERVAL=1;BYDAY=2TU")
        let current = Self.record(FamilyEntities.reminder, monthly)
        func complete(due: String) -> [String: JSONTree] {
            [
                "dueAt": .string(due), "completedAt": .string("2026-12-08T09:05:00.000Z"),
                "completedBy": .string(Self.child),
            ]
        }
        #expect(
            Self.problem(Self.child, .upsert, complete(due: "2027-01-12T09:00:00.000Z"), current: current) == nil,
            "January's second Tuesday is next")
        #expect(
            Self.problem(Self.child, .upsert, complete(due: "2026-12-15T09:00:00.000Z"), current: current)?.field
                == "dueAt",
            "a week later is not the next occurrence of a monthly repeat")

        func refusal(_ changes: [String: JSONTree?], base: [String: JSONTree]) -> APIErrorDetail? {
            var fields = base
            for (name, value) in changes { fields[name] = value ?? .null }
            return Self.problem(Self.parent, fields)
        }
        #expect(
            refusal(["repeatMonthDay": .int(8)], base: monthly)?.field == "repeatMonthDay", "a day and a place at once")
        #expect(refusal(["repeatMonthWeekday": nil], base: monthly)?.field == "repeatMonthDay", "neither")
        #expect(refusal(["repeatMonthWeekday": .string("7TU")], base: monthly)?.field == "repeatMonthWeekday")
        #expect(refusal(["repeatDays": .string("TU")], base: monthly)?.field == "repeatDays")
        #expect(refusal(["repeatInterval": .int(13)], base: monthly)?.message == "Repeat every 1 to 12 months.")
        #expect(refusal(["repeatFrequency": .string("yearly")], base: monthly)?.field == "repeatFrequency")
        #expect(
            refusal(["repeatMonthWeekday": nil, "repeatMonthDay": .int(8)], base: monthly) == nil,
            "the 8th of each month")
        #expect(
            refusal(["repeatMonthWeekday": nil, "repeatMonthDay": .int(32)], base: monthly)?.field == "repeatMonthDay")

        var daily = monthly
        daily["repeatFrequency"] = .string("daily")
        daily["repeatMonthWeekday"] = nil
        daily["repeatInterval"] = .int(365)
        daily["dueAt"] = .string("2026-12-01T09:00:00.000Z")
        #expect(Self.problem(Self.parent, daily) == nil)
        #expect(refusal(["repeatInterval": .int(366)], base: daily)?.field == "repeatInterval")
        #expect(refusal(["repeatDays": .string("MO")], base: daily)?.field == "repeatDays")
        #expect(refusal(["repeatTime": nil], base: daily)?.field == "repeatTime")
        // A weekly record written before `repeatFrequency` existed is still weekly, and says so once named.
        var weekly = Self.repeating(due: "2026-11-30T09:00:00.000Z")
        #expect(Self.problem(Self.parent, weekly) == nil)
        weekly["repeatFrequency"] = .string("weekly")
        #expect(Self.problem(Self.parent, weekly) == nil)
        #expect(refusal(["repeatMonthDay": .int(3)], base: weekly)?.field == "repeatMonthDay")
        #expect(refusal(["repeatInterval": .int(53)], base: weekly)?.message == "Repeat every 1 to 52 weeks.")
    }

    @Test func theCompleterUndoesWithinThirtySecondsAndChangesNothingElse() throws {
        // The child completed a one-off at noon (Self.now); the undo is judged some seconds later.
        var fields = Self.reminder(creator: Self.parent, assignee: Self.child, status: "completed")
        fields["completedBy"] = .string(Self.child)
        fields["completedAt"] = .string("2026-11-24T12:00:00.000Z")
        fields["completedDueAt"] = .string(Self.later)
        let done = Self.record(FamilyEntities.reminder, fields)
        let undo: [String: JSONTree] = [
            "status": .string("pending"), "completedBy": .null, "completedAt": .null, "completedDueAt": .null,
            "dueAt": .string(Self.later),
        ]
        func judged(
            _ actor: String, _ fields: [String: JSONTree] = undo, after seconds: TimeInterval = 10,
            current: SyncRecord = done
        )
            -> APIErrorDetail?
        {
            Self.problem(actor, .upsert, fields, current: current, at: Self.now.addingTimeInterval(seconds))
        }
        #expect(judged(Self.child) == nil, "the completer, 10 s later: pending again")
        #expect(judged(Self.child, after: 29.9) == nil)
        #expect(judged(Self.parent)?.code == "not_allowed", "the creator did not complete it")
        #expect(judged(Self.parent)?.message == "Only the person who completed this reminder can undo it.")
        #expect(judged(Self.otherParent)?.code == "not_allowed")
        #expect(judged(Self.outsider)?.code == "forbidden")
        let late = judged(Self.child, after: 31)
        #expect(late?.code == "undo_expired" && late?.message == "A completion can be undone only within 30 seconds.")
        #expect(judged(Self.child, after: 30)?.code == "undo_expired", "the parents are told at 30 s")
        #expect(judged(Self.child, undo.merging(["title": .string("Feed the dog")]) { $1 })?.field == "title")
        #expect(
            judged(Self.child, undo.merging(["title": .string("Feed the cat")]) { $1 }) == nil,
            "an unchanged field may come along")
        #expect(judged(Self.child, undo.merging(["status": .string("completed")]) { $1 })?.field == "status")
        #expect(
            judged(Self.child, undo.merging(["dueAt": .string("2026-12-01T09:00:00.000Z")]) { $1 })?.field == "dueAt")
        #expect(
            judged(Self.child, undo.merging(["completedAt": .string("2026-11-24T12:00:05.000Z")]) { $1 })?.field
                == "completedAt")
        #expect(
            judged(Self.child, ["title": .string("Feed the dog")])?.code == "completed", "still read-only otherwise")

        // A repeat done early (due Monday 10:00 in Paris, now Wednesday's occurrence is due): the
        // undo brings Monday back, even once it has passed.
        var repeating = Self.repeating(due: "2026-12-02T09:00:00.000Z")
        repeating["completedBy"] = .string(Self.child)
        repeating["completedAt"] = .string("2026-11-24T12:00:00.000Z")
        repeating["completedDueAt"] = .string("2026-11-30T09:00:00.000Z")
        let moved = Self.record(FamilyEntities.reminder, repeating)
        let back = undo.merging(["dueAt": .string("2026-11-30T09:00:00.000Z")]) { $1 }
        #expect(judged(Self.child, back, current: moved) == nil, "Monday's occurrence is due again")
        #expect(
            judged(Self.child, undo.filter { $0.key != "dueAt" }, current: moved)?.field == "dueAt",
            "not left where it moved")
        #expect(judged(Self.child, back, after: 31, current: moved)?.code == "undo_expired")
        let snoozed = back.merging(["snoozeCount": .int(2)]) { $1 }
        #expect(judged(Self.child, snoozed, current: moved)?.field == "snoozeCount", "no snooze with it")
    }

    @Test func aCompletionStatesTheOccurrenceItFinished() {
        let current = Self.record(FamilyEntities.reminder, Self.reminder(creator: Self.parent, assignee: Self.child))
        func completion(_ dueAt: String) -> [String: JSONTree] {
            [
                "status": .string("completed"), "completedAt": .string("2026-11-24T12:00:00.000Z"),
                "completedBy": .string(Self.child), "completedDueAt": .string(dueAt),
            ]
        }
        #expect(Self.problem(Self.child, .upsert, completion(Self.later), current: current) == nil)
        #expect(
            Self.problem(Self.child, .upsert, completion("2026-11-20T09:00:00.000Z"), current: current)?.field
                == "completedDueAt")

        // A second device completes Monday's occurrence after the first moved the repeat to Wednesday.
        let moved = Self.record(FamilyEntities.reminder, Self.repeating(due: "2026-12-02T09:00:00.000Z"))
        func again(_ completedDueAt: String) -> [String: JSONTree] {
            [
                "dueAt": .string("2026-12-02T09:00:00.000Z"), "completedAt": .string("2026-11-30T09:05:00.000Z"),
                "completedBy": .string(Self.child), "completedDueAt": .string(completedDueAt),
            ]
        }
        #expect(Self.problem(Self.child, .upsert, again("2026-11-30T09:00:00.000Z"), current: moved) == nil, "Monday's")
        #expect(
            Self.problem(Self.child, .upsert, again("2026-11-30T09:30:00.000Z"), current: moved)?.field
                == "completedDueAt",
            "not an occurrence")
    }

    @Test func checklistItemsFollowTheirReminder() {
        let reminder = Self.record(FamilyEntities.reminder, Self.reminder(creator: Self.parent, assignee: Self.child))
        let item: [String: JSONTree] = [
            "reminderId": .string(reminder.id.lowercased), "text": .string("Water"), "done": .bool(true),
            "position": .int(0),
        ]
        let entity = FamilyEntities.checklistItem
        let stored = Self.record(entity, item.merging(["done": .bool(false)]) { $1 })
        #expect(
            Self.problem(Self.child, .upsert, ["done": .bool(true)], current: stored, entity: entity, extra: [reminder])
                == nil,
            "the assignee ticks")
        #expect(
            Self.problem(Self.otherParent, .upsert, item, entity: entity, extra: [reminder]) == nil,
            "a parent adds an item")
        #expect(Self.problem(Self.otherChild, .upsert, item, entity: entity, extra: [reminder])?.code == "not_allowed")
        #expect(Self.problem(Self.outsider, .upsert, item, entity: entity, extra: [reminder])?.code == "forbidden")
        #expect(Self.problem(Self.child, .upsert, item, entity: entity)?.code == "not_found", "no such reminder")
        let done = Self.record(
            FamilyEntities.reminder, Self.reminder(creator: Self.parent, assignee: Self.child, status: "completed"),
            id: reminder.id)
        #expect(Self.problem(Self.child, .upsert, item, entity: entity, extra: [done])?.code == "completed")
    }

    /// A reminder due `later`, made by the parent for the child.
    static var parentsReminder: SyncRecord {
        record(FamilyEntities.reminder, reminder(creator: parent, assignee: child))
    }

    @Test func aCompletionIsJudgedAsOneWhateverFieldsItCarries() throws {
        let current = Self.parentsReminder
        let completedOnly: [String: JSONTree] = ["status": .string("completed")]
        // Another parent may edit the reminder, but "completed" without completedBy is still a completion.
        #expect(Self.problem(Self.otherParent, .upsert, completedOnly, current: current)?.code == "not_allowed")
        #expect(Self.problem(Self.otherChild, .upsert, completedOnly, current: current)?.code == "not_allowed")
        // The assignee and the creator must say who and when: no silent completion.
        #expect(Self.problem(Self.child, .upsert, completedOnly, current: current)?.field == "completedBy")
        #expect(Self.problem(Self.parent, .upsert, completedOnly, current: current)?.field == "completedBy")
        let noTime: [String: JSONTree] = ["status": .string("completed"), "completedBy": .string(Self.child)]
        #expect(Self.problem(Self.child, .upsert, noTime, current: current)?.field == "completedAt")
        // completedAt or completedBy alone is a completion too, and a one-off's completion completes it.
        let stampOnly: [String: JSONTree] = ["completedAt": .string("2026-11-24T12:00:00.000Z")]
        #expect(Self.problem(Self.otherParent, .upsert, stampOnly, current: current)?.code == "not_allowed")
        #expect(Self.problem(Self.child, .upsert, stampOnly, current: current)?.field == "completedBy")
        let stillPending: [String: JSONTree] = [
            "completedBy": .string(Self.child), "completedAt": .string("2026-11-24T12:00:00.000Z"),
        ]
        #expect(Self.problem(Self.child, .upsert, stillPending, current: current)?.field == "status")
        #expect(
            Self.problem(Self.otherParent, .upsert, ["completedDueAt": .string(Self.later)], current: current)?.code
                == "not_allowed")

        // A repeat's due time moved on to its next occurrence is that occurrence completed.
        let weekly = Self.record(FamilyEntities.reminder, Self.repeating(due: "2026-11-30T09:00:00.000Z"))
        let movedOn: [String: JSONTree] = ["dueAt": .string("2026-12-02T09:00:00.000Z")]
        #expect(Self.problem(Self.otherParent, .upsert, movedOn, current: weekly)?.code == "not_allowed")
        #expect(Self.problem(Self.child, .upsert, movedOn, current: weekly)?.field == "completedBy")
        #expect(Self.problem(Self.parent, .upsert, movedOn, current: weekly)?.field == "completedBy", "the creator too")
        let skipped: [String: JSONTree] = ["dueAt": .string("2026-12-07T09:00:00.000Z")]
        #expect(
            Self.problem(Self.otherParent, .upsert, skipped, current: weekly)?.code == "not_allowed",
            "skipping is no edit")
        // Moving it within the occurrence, or changing the repeat itself, stays an edit.
        let later: [String: JSONTree] = ["dueAt": .string("2026-11-30T10:00:00.000Z")]
        #expect(Self.problem(Self.otherParent, .upsert, later, current: weekly) == nil)
        var newRepeat = ReminderFields.repeating(
            try Recurrence.weekly(
                [.tuesday], interval: 1, start: LocalDate("2026-12-01")!, time: LocalTime("08:00")!,
                timeZone: TimeZone(identifier: "Europe/Paris")!
            ).get())
        newRepeat["dueAt"] = .string("2026-12-01T07:00:00.000Z")
        #expect(Self.problem(Self.otherParent, .upsert, newRepeat, current: weekly) == nil)

        // A new reminder carries no completion.
        var born = Self.reminder(creator: Self.parent, assignee: Self.child)
        born["completedAt"] = .string("2026-11-24T12:00:00.000Z")
        #expect(Self.problem(Self.parent, born)?.field == "status")
    }

    @Test func makingACompletedReminderPendingIsAnUndo() {
        var fields = Self.reminder(creator: Self.parent, assignee: Self.child, status: "completed")
        fields["completedBy"] = .string(Self.child)
        fields["completedAt"] = .string("2026-11-24T12:00:00.000Z")
        fields["completedDueAt"] = .string(Self.later)
        let done = Self.record(FamilyEntities.reminder, fields)
        let reopen: [String: JSONTree] = ["status": .string("pending")]
        #expect(
            Self.problem(Self.parent, .upsert, reopen, current: done, at: Self.now + 5)?.code == "not_allowed",
            "only the completer undoes")
        #expect(
            Self.problem(Self.child, .upsert, reopen, current: done, at: Self.now + 5)?.field == "completedBy",
            "an undo clears the completion")
        #expect(Self.problem(Self.child, .upsert, reopen, current: done, at: Self.now + 40)?.code == "undo_expired")
        // Erasing a repeat's last completion is an undo too, and refused after 30 s.
        var repeating = Self.repeating(due: "2026-12-02T09:00:00.000Z")
        repeating["completedBy"] = .string(Self.child)
        repeating["completedAt"] = .string("2026-11-24T12:00:00.000Z")
        repeating["completedDueAt"] = .string("2026-11-30T09:00:00.000Z")
        let moved = Self.record(FamilyEntities.reminder, repeating)
        #expect(
            Self.problem(Self.child, .upsert, ["completedAt": .null], current: moved, at: Self.now + 40)?.code
                == "undo_expired")
    }

    @Test func aChildDoesWhatAParentAskedButChangesNothingOfIt() {
        let current = Self.parentsReminder
        for (name, value) in [
            ("title", JSONTree.string("Feed the dog")), ("dueAt", .string("2026-12-01T09:00:00.000Z")),
            ("assigneeId", .string(Self.otherChild)),
        ] {
            let problem = Self.problem(Self.child, .upsert, [name: value], current: current)
            #expect(problem?.code == "not_allowed" && problem?.field == name, "\(name): \(String(describing: problem))")
        }
        let weekly = Self.record(FamilyEntities.reminder, Self.repeating(due: "2026-11-30T09:00:00.000Z"))
        let rarer = Self.problem(Self.child, .upsert, ["repeatInterval": .int(2)], current: weekly)
        #expect(rarer?.code == "not_allowed" && rarer?.field == "repeatInterval", "\(String(describing: rarer))")
        #expect(Self.problem(Self.child, .delete, current: current)?.code == "not_allowed")
        // What the child does: complete, snooze once due, set its place.
        let completion: [String: JSONTree] = [
            "status": .string("completed"), "completedBy": .string(Self.child),
            "completedAt": .string("2026-11-24T12:00:00.000Z"), "completedDueAt": .string(Self.later),
        ]
        #expect(Self.problem(Self.child, .upsert, completion, current: current) == nil)
        let snooze: [String: JSONTree] = ["snoozeCount": .int(1), "snoozedUntil": .string("2026-11-30T09:10:00.000Z")]
        #expect(
            Self.problem(Self.child, .upsert, snooze, current: current, at: Date(timeIntervalSince1970: 1_796_029_500))
                == nil)
        let place = ReminderFields.location(GeoPoint(latitude: 48.85, longitude: 2.35)!, accuracy: 5, at: Self.now)
        #expect(Self.problem(Self.child, .upsert, place, current: current) == nil)
        #expect(
            Self.problem(Self.child, .upsert, completion.merging(["title": .string("Fed")]) { $1 }, current: current)?
                .field == "title",
            "nothing else rides along with a completion")

        // The checklist: the child ticks; adding, rewording and removing items are the parent's.
        let entity = FamilyEntities.checklistItem
        let item = Self.record(
            entity,
            [
                "reminderId": .string(current.id.lowercased), "text": .string("Water"), "done": .bool(false),
                "position": .int(0),
            ])
        func judged(_ actor: String, _ op: Mutation.Operation, _ fields: [String: JSONTree], _ stored: SyncRecord?)
            -> APIErrorDetail?
        {
            Self.problem(actor, op, fields, current: stored, entity: entity, extra: [current])
        }
        #expect(judged(Self.child, .upsert, ["done": .bool(true)], item) == nil)
        #expect(judged(Self.child, .upsert, ["text": .string("Milk")], item)?.code == "not_allowed")
        #expect(judged(Self.child, .upsert, ["position": .int(3)], item)?.field == "position")
        #expect(judged(Self.child, .delete, [:], item)?.code == "not_allowed")
        #expect(judged(Self.child, .upsert, item.fields, nil)?.code == "not_allowed", "no new item")
        #expect(judged(Self.parent, .upsert, ["text": .string("Milk")], item) == nil)

        // A reminder the child made for itself stays the child's to change.
        let own = Self.record(FamilyEntities.reminder, Self.reminder(creator: Self.child, assignee: Self.child))
        #expect(Self.problem(Self.child, .upsert, ["title": .string("Feed the dog")], current: own) == nil)
        let ownItem = Self.record(entity, item.fields.merging(["reminderId": .string(own.id.lowercased)]) { $1 })
        #expect(
            Self.problem(Self.child, .upsert, ["text": .string("Milk")], current: ownItem, entity: entity, extra: [own])
                == nil)
        #expect(Self.problem(Self.child, .delete, current: ownItem, entity: entity, extra: [own]) == nil)
    }
}
