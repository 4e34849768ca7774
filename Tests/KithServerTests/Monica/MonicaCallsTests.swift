import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's calls API tests assert, and what a call does to its contact (`last_called`,
/// `number_of_calls`).
@Suite("Monica API: calls")
struct MonicaCallsTests {
    static let structure = [
        "data.id", "data.uuid", "data.object", "data.called_at", "data.content", "data.contact_called", "data.emotions",
        "data.url", "data.account.id", "data.contact.id", "data.created_at", "data.updated_at",
    ]

    @Test(arguments: Engine.available)
    func callsAreListedShownMadeChangedAndDeleted(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let john = try await me.contact("John")
            let jane = try await me.contact("Jane")
            let created = try await me.post(
                "/api/calls", ["contact_id": .int(john), "content": "the call", "called_at": "2018-05-01"])
            #expect(created.status == .created)
            expectStructure(created.json, Self.structure)
            expectFragment(
                created,
                [
                    ("object", "call"), ("content", "the call"), ("called_at", "2018-05-01T00:00:00Z"),
                    ("contact_called", false),
                ])
            let call = try #require(created.dataID)
            let second = try await me.post(
                "/api/calls",
                ["contact_id": .int(jane), "called_at": "2017-03-04T10:30:00+02:00", "contact_called": "1"])
            expectFragment(
                second, [("called_at", "2017-03-04T08:30:00Z"), ("contact_called", true), ("content", .null)])

            #expect(ids(try await me.get("/api/calls")).count == 2)
            let johns = try await me.get("/api/contacts/\(john)/calls")
            #expect(ids(johns) == [call])
            // A contact's list counts the account's calls by year, newest first.
            #expect(johns.json["meta"]?["statistics"] == ["2018": 1, "2017": 1])
            #expect(try await me.get("/api/calls/\(call)").data?["content"] == "the call")
            expectNotFound(try await me.get("/api/contacts/0/calls"))
            expectNotFound(try await me.get("/api/calls/0"))

            expectDataError(
                try await me.post("/api/calls", ["contact_id": .int(john)]), ["The called at field is required."])
            expectDataError(
                try await me.post("/api/calls", ["contact_id": .int(john), "called_at": "2018-02-30"]),
                ["The called at is not a valid date."])
            let foreign = try await other.contact("Other")
            expectNotFound(try await me.post("/api/calls", ["contact_id": .int(foreign), "called_at": "2018-05-01"]))
            // Kith keeps no emotions, so a call naming one names nothing there is.
            expectNotFound(
                try await me.post("/api/calls", ["contact_id": .int(john), "called_at": "2018-05-01", "emotions": [1]]))

            let updated = try await me.put(
                "/api/calls/\(call)",
                ["contact_id": .int(john), "content": "changed", "called_at": "2018-06-01 09:15:00"])
            #expect(updated.status == .ok)
            expectFragment(
                updated, [("id", .int(call)), ("content", "changed"), ("called_at", "2018-06-01T09:15:00Z")])
            expectDataError(
                try await me.put("/api/calls/\(call)", ["contact_id": .int(john)]), ["The called at field is required."]
            )
            expectDataError(
                try await me.put("/api/calls/999999", ["called_at": "2018-05-01"]), ["The selected call id is invalid."]
            )
            expectNotFound(try await other.put("/api/calls/\(call)", ["called_at": "2018-05-01"]))
            expectNotFound(try await other.delete("/api/calls/\(call)"))
            #expect(try await other.get("/api/calls").json["meta"]?["total"] == 0)

            #expect(try await me.delete("/api/calls/\(call)").json == ["deleted": true, "id": .int(call)])
            expectNotFound(try await me.delete("/api/calls/0"))
            #expect(ids(try await me.get("/api/calls")).count == 1)
        }
    }

    /// The years are UTC years, counted by each engine: a call late on New Year's Eve in UTC is
    /// the old year's, whatever offset it was sent with; calls before 1970 count too.
    @Test(arguments: Engine.available)
    func callsAreCountedByUTCYear(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let john = try await me.contact("John")
            for when in [
                "2001-01-01T01:00:00+02:00", "2000-06-01", "1969-12-31T23:59:59Z", "1815-12-10", "2001-01-01T00:00:00Z",
            ] {
                #expect(
                    try await me.post("/api/calls", ["contact_id": .int(john), "called_at": .string(when)]).status
                        == .created)
            }
            let otherJohn = try await other.contact("John")
            _ = try await other.post("/api/calls", ["contact_id": .int(otherJohn), "called_at": "1999-01-01"])
            let listed = try await me.get("/api/contacts/\(john)/calls")
            #expect(listed.json["meta"]?["statistics"] == ["2001": 1, "2000": 2, "1969": 1, "1815": 1])
        }
    }

    @Test(arguments: Engine.available)
    func aContactShowsItsLatestCallAndHowManyThereAre(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let john = try await me.contact("John")
            func shown() async throws -> (last: JSONTree?, count: JSONTree?) {
                let contact = try await me.get("/api/contacts/\(john)").data
                return (contact?["last_called"], contact?["statistics"]?["number_of_calls"])
            }
            #expect(try await shown() == (.null, 0))
            let older = try #require(
                try await me.post("/api/calls", ["contact_id": .int(john), "called_at": "2017-12-01"]).dataID)
            let newer = try #require(
                try await me.post("/api/calls", ["contact_id": .int(john), "called_at": "2017-12-20 18:00"]).dataID)
            #expect(try await shown() == ("2017-12-20T18:00:00.000000Z", 2))
            _ = try await me.put("/api/calls/\(older)", ["called_at": "2017-12-24"])
            #expect(try await shown() == ("2017-12-24T00:00:00.000000Z", 2))
            _ = try await me.delete("/api/calls/\(older)")
            #expect(try await shown() == ("2017-12-20T18:00:00.000000Z", 1))
            _ = try await me.delete("/api/calls/\(newer)")
            #expect(try await shown() == (.null, 0))
            // The contact's list shows it too.
            _ = try await me.post("/api/calls", ["contact_id": .int(john), "called_at": "2017-11-11"])
            let listed = try await me.get("/api/contacts").data?[0]
            #expect(listed?["last_called"] == "2017-11-11T00:00:00.000000Z")
            #expect(listed?["statistics"]?["number_of_calls"] == 1)
        }
    }
}
