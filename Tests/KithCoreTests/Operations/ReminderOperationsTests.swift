import Foundation
import KithCore
import Testing

@Suite("Family reminder operations")
struct ReminderOperationsTests {
    static let family = "family:f1"
    static let parent = "00000000-0000-0000-0000-0000000000aa"
    static let child = "00000000-0000-0000-0000-0000000000bb"

    static func bench(as actor: String) -> OperationBench {
        var bench = OperationBench()
        bench.actor = actor
        bench.records[FamilyEntities.info.name] = [UUID(): ["name": .string("Curies"), "timeZone": .string("Europe/Paris")]]
        bench.records[FamilyEntities.member.name] = [
            UUID(): ["userId": .string(parent), "displayName": .string("Marie"), "role": .string("parent")],
            UUID(): ["userId": .string(child), "displayName": .string("Irène"), "role": .string("child")],
        ]
        return bench
    }

    @Test("an edit from a form that saw an older reminder keeps what another member changed since")
    func anEditKeepsTheOtherChange() throws {
        var bench = Self.bench(as: Self.parent)
        let due = bench.now.addingTimeInterval(3600)
        let input = FamilyReminderInput(
            title: "Dishes", dueAt: due, assigneeId: Self.child, checklist: [.init(text: "plates"), .init(text: "cups")])
        let (made, writes) = try bench.run(ReminderOperations.create(input, in: Self.family))
        #expect(writes.count == 3, "the reminder and its two lines, in one operation")
        let seen = FamilyReminderInput(made, recurrence: nil)

        // Someone renames it and adds a line after this form was opened.
        var renamed = seen
        renamed.title = "Dishes and pans"
        renamed.checklist.append(.init(text: "pans"))
        _ = try bench.run(ReminderOperations.edit(made.id, to: renamed, seen: seen, in: Self.family))

        // This form, from before, only moves the due time.
        var moved = seen
        moved.dueAt = due.addingTimeInterval(600)
        let (after, _) = try bench.run(ReminderOperations.edit(made.id, to: moved, seen: seen, in: Self.family))
        #expect(after.title == "Dishes and pans", "the other title stands")
        #expect(after.checklist.map(\.text) == ["plates", "cups", "pans"], "the other line stands")
        #expect(after.dueAt == due.addingTimeInterval(600))
    }

    @Test("completing a one-off reminder is one write; one that is not there is refused")
    func complete() throws {
        var bench = Self.bench(as: Self.child)
        let input = FamilyReminderInput(title: "Bed", dueAt: bench.now, assigneeId: Self.child)
        let (made, _) = try bench.run(ReminderOperations.create(input, in: Self.family))
        let (done, writes) = try bench.run(ReminderOperations.complete(made.id, in: Self.family))
        #expect(done.status == .completed && done.completedBy == Self.child && writes.count == 1)
        #expect(throws: APIErrorDetail.self) { try bench.run(ReminderOperations.complete(UUID(), in: Self.family)) }
        var stranger = Self.bench(as: "00000000-0000-0000-0000-0000000000cc")
        #expect(throws: APIErrorDetail(.notInFamily, "You are not in this family.")) {
            try stranger.run(ReminderOperations.create(input, in: Self.family))
        }
    }
}
