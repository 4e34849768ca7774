import Foundation
import KithCore
import Testing

@Suite("Outreach operations")
struct OutreachOperationsTests {
    static let csv = """
        First Name,Last Name,Enterprise,Delivered,Delivered At,Comments
        Ada,Lovelace,Analytical,no,,
        Grace,Hopper,US Navy,yes,2026-11-21T10:00:00Z,met
        """

    @Test("importing the same file twice adds nobody the second time; a changed row updates its person")
    func importingAgainAddsNobody() throws {
        var bench = OperationBench()
        let (year, _) = try bench.run(OutreachOperations.addYear("2026"))
        let (first, _) = try bench.run(OutreachOperations.importCSV(Self.csv, into: year.id))
        #expect(first == OutreachImport(added: 2, updated: 0, unchanged: 0))
        let (again, writes) = try bench.run(OutreachOperations.importCSV(Self.csv, into: year.id))
        #expect(again == OutreachImport(added: 0, updated: 0, unchanged: 2) && writes.isEmpty)
        let changed = Self.csv.replacingOccurrences(
            of: "Ada,Lovelace,Analytical,no,,", with: "ADA,lovelace,Analytical,no,,call back")
        let (third, _) = try bench.run(OutreachOperations.importCSV(changed, into: year.id))
        #expect(third == OutreachImport(added: 0, updated: 1, unchanged: 1), "names match ignoring case")
        #expect(bench.fields(OutreachEntities.contact).count == 2)
        #expect(bench.fields(OutreachEntities.contact).contains { $0["comments"] == .string("call back") })
    }

    @Test("a change to one person reads that person alone, not the year's other people")
    func aChangeToOnePersonReadsThemAlone() throws {
        var bench = OperationBench()
        let (year, _) = try bench.run(OutreachOperations.addYear("2026"))
        _ = try bench.run(OutreachOperations.importCSV(Self.csv, into: year.id))
        let ada = try #require(
            bench.records[OutreachEntities.contact.name]?.first { $0.value["firstName"] == .string("Ada") }?.key)
        for operation in [
            OutreachOperations.setDelivered(ada, true).map { _ in () },
            OutreachOperations.editPerson(ada, []).map { _ in () },
            OutreachOperations.deletePerson(ada).map { _ in () },
        ] {
            #expect(!operation.wholeReads.contains(OutreachEntities.contact.name), "\(operation.name)")
            #expect(
                operation.recordReads(in: bench.scope) == [OutreachEntities.contact.name: [ada]], "\(operation.name)")
        }
        // Run over the bench, which gives an operation only what it lists: it decides from that alone.
        let (delivered, writes) = try bench.run(OutreachOperations.setDelivered(ada, true))
        #expect(delivered.delivered && writes.map(\.id) == [ada])
        #expect(throws: APIErrorDetail(.notFound, "That person does not exist (it may have been deleted).")) {
            try bench.run(OutreachOperations.setDelivered(UUID(), true))
        }
    }

    @Test("a bad row is skipped and reported by line in words; a file that is not the CSV writes nothing")
    func aBadRowIsSkipped() throws {
        var bench = OperationBench()
        let (year, _) = try bench.run(OutreachOperations.addYear("2026"))
        let bad = Self.csv + "\nAlan,Turing,Bletchley,maybe,,\n,Hopper,Navy,no,,"
        let (done, _) = try bench.run(OutreachOperations.importCSV(bad, into: year.id))
        #expect(done.added == 2 && done.skippedCount == 2)
        #expect(
            done.skipped.map(\.sentence) == ["Line 4: Delivered must be yes or no.", "Line 5: Enter a first name."])
        #expect(
            OutreachImport.sentence(done)
                == "Imported 2 people; 2 lines were skipped.")
        #expect(bench.fields(OutreachEntities.contact).count == 2)

        var empty = OperationBench()
        let (other, _) = try empty.run(OutreachOperations.addYear("2027"))
        #expect(throws: APIErrorDetail(code: "invalid_csv", message: "Line 4: a quoted field never ends")) {
            try empty.run(OutreachOperations.importCSV(Self.csv + "\n\"Alan,Turing,B,no,,", into: other.id))
        }
        #expect(empty.fields(OutreachEntities.contact).isEmpty)
    }

    @Test("a file from French or German Excel, with semicolons, imports like one with commas")
    func semicolonsAreSeparators() throws {
        var bench = OperationBench()
        let (year, _) = try bench.run(OutreachOperations.addYear("2026"))
        let csv =
            "First Name;Last Name;Enterprise;Delivered;Delivered At;Comments\r\n"
            + "Émile;Durand;\"Dupont; Fils\";no;;\"prix: 3,50 €\"\r\nJürgen;Müller;GmbH;yes;2026-11-21T10:00:00Z;\r\n"
        let (done, _) = try bench.run(OutreachOperations.importCSV(csv, into: year.id))
        #expect(done == OutreachImport(added: 2, updated: 0, unchanged: 0))
        let people = bench.fields(OutreachEntities.contact)
        #expect(
            people.contains {
                $0["enterpriseName"] == .string("Dupont; Fils") && $0["comments"] == .string("prix: 3,50 €")
            })
        #expect(people.contains { $0["lastName"] == .string("Müller") && $0["delivered"] == .bool(true) })
    }

    @Test("many people ticked, marked delivered, then undone: each back as it was, time included")
    func manyDeliveriesAndTheirUndo() throws {
        var bench = OperationBench()
        let (year, _) = try bench.run(OutreachOperations.addYear("2026"))
        let (done, _) = try bench.run(OutreachOperations.importCSV(Self.csv, into: year.id))
        #expect(done.added == 2)
        let people = bench.fields(OutreachEntities.contact)
        #expect(people.count == 2)
        let ids = bench.ids(OutreachEntities.contact)
        let (before, writes) = try bench.run(OutreachOperations.setDelivered(ids, true))
        // Grace was delivered already: she keeps her time, and only Ada is written and undone.
        #expect(before.count == 1 && writes.count == 1 && before[0].delivered == false)
        let (restored, _) = try bench.run(OutreachOperations.undo(.deliveries(before)))
        #expect(restored == 1)
        let delivered = bench.fields(OutreachEntities.contact).filter { $0["delivered"] == .bool(true) }
        #expect(delivered.count == 1 && delivered[0]["deliveredAt"] == .string("2026-11-21T10:00:00.000Z"))
    }

    @Test("many people deleted, then undone: they are back with their comments and delivery")
    func manyDeletedAndBack() throws {
        var bench = OperationBench()
        let (year, _) = try bench.run(OutreachOperations.addYear("2026"))
        _ = try bench.run(OutreachOperations.importCSV(Self.csv, into: year.id))
        let before = Set(bench.fields(OutreachEntities.contact))
        let (gone, _) = try bench.run(OutreachOperations.deletePeople(bench.ids(OutreachEntities.contact) + [UUID()]))
        #expect(gone.count == 2 && bench.fields(OutreachEntities.contact).isEmpty)
        #expect(throws: APIErrorDetail(.notFound, "Those people are not there (they may have been deleted).")) {
            try bench.run(OutreachOperations.deletePeople(gone.map(\.id)))
        }
        let (back, _) = try bench.run(OutreachOperations.undo(.deletion(gone)))
        #expect(back == 2)
        #expect(Set(bench.fields(OutreachEntities.contact)) == before)
    }

    @Test("an edit writes only what the person changed from what they saw, and says what it replaced")
    func anEditWritesWhatChanged() throws {
        var bench = OperationBench()
        let (year, _) = try bench.run(OutreachOperations.addYear("2026"))
        let (ada, _) = try bench.run(
            OutreachOperations.addPerson(to: year.id, first: "Ada", last: "Lovelace", enterprise: "US Navy"))
        // Another tab renames the enterprise after this form was opened.
        _ = try bench.run(
            OutreachOperations.editPerson(
                ada.id,
                OutreachFields.edits(first: nil, last: nil, enterprise: "US Navy Reserve", comments: nil, seen: ada)))
        // This form, showing the old person, changes only the comments.
        let (replaced, writes) = try bench.run(
            OutreachOperations.editPerson(
                ada.id,
                OutreachFields.edits(
                    first: "Ada", last: "Lovelace", enterprise: "US Navy", comments: "called", seen: ada)))
        #expect(replaced.isEmpty)
        #expect(
            writes.map(\.change) == [.upsert(["comments": .string("called")])], "the enterprise is not written back")
        #expect(bench.fields(OutreachEntities.contact).first?["enterpriseName"] == .string("US Navy Reserve"))

        // Both change the enterprise: the later wins, and the page can say what it replaced.
        let (both, _) = try bench.run(
            OutreachOperations.editPerson(
                ada.id,
                OutreachFields.edits(first: "Ada", last: "Lovelace", enterprise: "Navy", comments: "", seen: ada)))
        #expect(
            both == [ReplacedValue(field: "enterpriseName", theirs: .string("US Navy Reserve"), yours: .string("Navy"))]
        )
    }

    @Test("copying a year copies its people, none delivered; deleting the shown year shows another")
    func copyAndDelete() throws {
        var bench = OperationBench()
        let (old, _) = try bench.run(OutreachOperations.addYear("2025", show: true))
        let (ada, _) = try bench.run(OutreachOperations.addPerson(to: old.id, first: "Ada", last: "L", enterprise: "A"))
        _ = try bench.run(OutreachOperations.setDelivered(ada.id, true))
        let (new, _) = try bench.run(OutreachOperations.addYear("2026", copying: old.id))
        let copied = bench.fields(OutreachEntities.contact).filter { $0["yearId"] == .string(new.id.lowercased) }
        #expect(copied.count == 1 && copied.first?["delivered"] == .bool(false))
        _ = try bench.run(OutreachOperations.selectYear(old.id))
        _ = try bench.run(OutreachOperations.deleteYear(old.id))
        let (shown, _) = try bench.run(OutreachOperations.openYear())
        #expect(shown.id == new.id)
        #expect(throws: APIErrorDetail.self) { try bench.run(OutreachOperations.selectYear(old.id)) }
    }
}
