import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// What Monica's `tests/Api/Contact/ApiContactControllerTest.php` asserts, against Kith.
@Suite("Monica API: contacts")
struct MonicaContactsTests {
    static let contactStructure = [
        "id", "object", "hash_id", "first_name", "last_name", "nickname", "gender", "gender_type", "is_starred",
        "is_partial", "is_dead", "is_me", "last_called", "last_activity_together", "stay_in_touch_frequency",
        "stay_in_touch_trigger_date", "information.relationships.love.total", "information.relationships.love.contacts",
        "information.relationships.family.total", "information.relationships.friend.total",
        "information.relationships.work.total", "information.dates.birthdate.is_age_based",
        "information.dates.birthdate.is_year_unknown", "information.dates.birthdate.date",
        "information.dates.deceased_date.date", "information.career.job", "information.career.company",
        "information.avatar.url", "information.avatar.source", "information.avatar.default_avatar_color",
        "information.food_preferences", "information.how_you_met.general_information",
        "information.how_you_met.first_met_date.date", "information.how_you_met.first_met_through_contact", "addresses",
        "tags", "statistics.number_of_calls", "statistics.number_of_notes", "statistics.number_of_activities",
        "statistics.number_of_reminders", "statistics.number_of_tasks", "statistics.number_of_gifts",
        "statistics.number_of_debts", "account.id", "created_at", "updated_at",
    ]
    static let partialStructure = [
        "id", "object", "hash_id", "first_name", "last_name", "nickname", "gender", "gender_type", "is_partial",
        "is_dead",
        "information.dates.birthdate.date", "information.dates.deceased_date.date", "account.id", "created_at",
        "updated_at",
    ]

    @Test(arguments: Engine.available)
    func listsContactsWithMonicasStructureAndPagination(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            for index in 1...10 { _ = try await me.contact("Person\(index)") }
            let all = try await me.get("/api/contacts")
            #expect(all.status == .ok)
            #expect(all.data?.arrayValue?.count == 10)
            expectStructure(all.json, Self.contactStructure.map { "data.*.\($0)" })
            expectFragment(all, [("total", 10), ("current_page", 1), ("per_page", 15)])

            let one = try await me.get("/api/contacts?limit=1")
            expectFragment(one, [("total", 10), ("current_page", 1), ("per_page", 1), ("last_page", 10)])
            #expect(one["links"]?["next"]?.stringValue == "https://kith.example/api/contacts?page=2")
            let two = try await me.get("/api/contacts?limit=2&page=5")
            expectFragment(two, [("total", 10), ("current_page", 5), ("per_page", 2), ("last_page", 5)])
            #expect(two["meta"]?["from"] == 9)
            #expect(two["links"]?["next"] == .null)
            let beyond = try await me.get("/api/contacts?limit=2&page=9")
            #expect(beyond.data == [])
            #expect(beyond["meta"]?["from"] == .null)

            let newestFirst = try await me.get("/api/contacts?sort=-created_at&limit=3")
            #expect(newestFirst.data?[0]?["first_name"] == "Person10")
        }
    }

    /// The list's order and total come from the in-memory contact index: every kind of change to a
    /// contact must show in the next page, in both orders and both directions.
    @Test(arguments: Engine.available)
    func theListFollowsEveryChangeInEveryOrder(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, server in
            var made: [Int64] = []
            for index in 1...5 {
                made.append(try await me.contact("Person\(index)"))
                server.clock.advance(by: 1)
            }
            #expect(ids(try await me.get("/api/contacts")) == made)
            #expect(ids(try await me.get("/api/contacts?sort=-created_at&limit=2&page=2")) == [made[2], made[1]])
            #expect(ids(try await me.get("/api/contacts?sort=updated_at&limit=2")) == [made[0], made[1]])

            #expect(try await me.put("/api/contacts/\(made[1])/introduction", ["is_date_known": false]).status == .ok)
            server.clock.advance(by: 1)
            #expect(ids(try await me.get("/api/contacts?sort=-updated_at&limit=1")) == [made[1]])
            #expect(try await me.put("/api/contacts/\(made[3])/work", ["job": "Pilot"]).status == .ok)
            server.clock.advance(by: 1)
            #expect(ids(try await me.get("/api/contacts?sort=-updated_at&limit=2")) == [made[3], made[1]])
            #expect(try await me.put("/api/contacts/\(made[2])", ["first_name": "Renamed", "is_birthdate_known": false, "is_deceased": false, "is_deceased_date_known": false]).status == .ok)
            #expect(ids(try await me.get("/api/contacts?sort=-updated_at&limit=1")) == [made[2]])

            #expect(try await me.delete("/api/contacts/\(made[0])").status == .ok)
            let after = try await me.get("/api/contacts?limit=2&page=2")
            #expect(ids(after) == [made[3], made[4]])
            expectFragment(after, [("total", 4), ("last_page", 2)])
        }
    }

    /// Kith's extension to Monica's `sort`: contacts by first or last name, ignoring case and
    /// accents, the other name breaking ties, contacts without that name last; in the list, in a
    /// name search's ties and in a field search. Other resources still refuse a name order.
    @Test(arguments: Engine.available)
    func contactsSortByFirstOrLastName(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let zoe = try await me.contact("zoë", "Adams")
            let emile = try await me.contact("Émile", "zola")
            let ada = try await me.contact("Ada", "adams")
            let cher = try await me.contact("Cher")
            let anna = try await me.contact("anna", "Zola", extra: [("email", "anna@example.com")])
            _ = try await me.contact("Partial", "Person", extra: [("is_partial", true)])

            #expect(ids(try await me.get("/api/contacts?sort=first_name")) == [ada, anna, cher, emile, zoe])
            #expect(ids(try await me.get("/api/contacts?sort=-first_name&limit=2")) == [zoe, emile])
            #expect(ids(try await me.get("/api/contacts?sort=last_name")) == [ada, zoe, anna, emile, cher])
            let lastPage = try await me.get("/api/contacts?sort=-last_name&limit=2&page=3")
            #expect(ids(lastPage) == [ada])
            expectFragment(lastPage, [("total", 5), ("last_page", 3)])

            #expect(ids(try await me.get("/api/contacts?query=zola&sort=first_name")) == [anna, emile])
            #expect(ids(try await me.get("/api/contacts?query=adams&sort=-first_name")) == [zoe, ada])
            #expect(ids(try await me.get("/api/contacts?query=email:anna&sort=last_name")) == [anna])
            // A search's words include the email a contact was created with.
            #expect(ids(try await me.get("/api/contacts?query=anna@example.com")) == [anna])
            #expect(ids(try await me.get("/api/contacts?query=example")) == [anna])

            #expect(try await me.put("/api/contacts/\(cher)", ["first_name": "Aaron", "last_name": "Cher", "is_birthdate_known": false, "is_deceased": false, "is_deceased_date_known": false]).status == .ok)
            #expect(ids(try await me.get("/api/contacts?sort=first_name&limit=1")) == [cher])
            #expect(ids(try await me.get("/api/contacts?sort=last_name")) == [ada, zoe, cher, anna, emile])

            for path in ["/api/notes?sort=first_name", "/api/contacts?sort=middle_name"] {
                let refused = try await me.get(path)
                #expect(refused.status == .badRequest)
                #expect(refused.json == ["error": ["message": "The sorting criteria is invalid", "error_code": 39]])
            }
        }
    }

    @Test(arguments: Engine.available)
    func searchFindsByPartOfANameAndPaginates(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            _ = try await me.contact("roger")
            for _ in 1...10 { _ = try await me.contact("bob") }
            let found = try await me.get("/api/contacts?query=ro")
            #expect(found.status == .ok)
            expectStructure(found.json, Self.contactStructure.map { "data.*.\($0)" })
            expectFragment(found, [("first_name", "roger"), ("total", 1), ("query", "ro")])

            _ = try await me.contact("roger")
            let first = try await me.get("/api/contacts?query=ro&limit=1")
            expectFragment(
                first, [("first_name", "roger"), ("total", 2), ("query", "ro"), ("per_page", 1), ("current_page", 1)])
            let second = try await me.get("/api/contacts?query=ro&limit=1&page=2")
            expectFragment(second, [("first_name", "roger"), ("total", 2), ("current_page", 2)])
        }
    }

    @Test(arguments: Engine.available)
    func johnFindsJonAndJonathanWithTheExactMatchFirst(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            _ = try await me.contact("Jonathan", "Swift")
            _ = try await me.contact("Mary", "Poppins")
            _ = try await me.contact("Jon", "Snow")
            _ = try await me.contact("John", "Doe")
            _ = try await me.contact("Anna", "Karenina", extra: [("nickname", "Johnny")])
            let found = try await me.get("/api/contacts?query=John")
            let names = found.data?.arrayValue?.compactMap { $0["first_name"]?.stringValue } ?? []
            #expect(names.first == "John")
            #expect(Set(names) == ["John", "Jon", "Jonathan", "Anna"])
            expectFragment(found, [("total", 4)])
            // Accents and case are ignored, and a typo still finds.
            let typo = try await me.get("/api/contacts?query=J%C3%B3nathon")
            #expect(typo.data?[0]?["first_name"] == "Jonathan")
            // A full name as browsers and Monica apps send it: `+` is a space in a query string.
            for query in ["Mary+Poppins", "Mary%20Poppins"] {
                let full = try await me.get("/api/contacts?query=\(query)")
                #expect(full.data?.arrayValue?.compactMap { $0["last_name"]?.stringValue } == ["Poppins"], "\(query)")
            }
        }
    }

    @Test(arguments: Engine.available)
    func fieldSearchFindsByContactFieldAndNeverAnotherAccount(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let john = try await me.contact("John", "Doe", extra: [("email", "john@doe.com")])
            let bad = try await other.contact("Bad", extra: [("email", "john@doe.com")])
            let types = try await me.get("/api/contactfieldtypes")
            let phone = try #require(
                types.data?.arrayValue?.first { $0["name"] == "Phone" }?["id"]?.intValue)
            let field = try await me.post(
                "/api/contactfields",
                ["contact_id": .int(john), "contact_field_type_id": .int(phone), "data": "+447007007007"])
            #expect(field.status == .created)

            let byPhone = try await me.get("/api/contacts?query=Phone:%2B447007007007")
            expectFragment(byPhone, [("id", .int(john)), ("first_name", "John"), ("last_name", "Doe")])
            let byEmail = try await me.get("/api/contacts?with=contactfields&page=1&limit=100&query=email:john@doe")
            #expect(ids(byEmail) == [john])
            expectMissing(byEmail, [("id", .int(bad)), ("first_name", "Bad")])
            let injection = try await me.get(
                "/api/contacts?with=contactfields&page=1&limit=100&query=1')%20or%20('%25'='")
            #expect(injection.status == .ok)
            expectMissing(injection, [("id", .int(bad)), ("first_name", "Bad")])
            // An email is searchable as words too.
            #expect(ids(try await me.get("/api/contacts?query=john%40doe.com")) == [john])
        }
    }

    @Test(arguments: Engine.available)
    func showsOneContactAndItsPartialAndMeForms(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let roger = try await me.contact("roger")
            let shown = try await me.get("/api/contacts/\(roger)")
            #expect(shown.status == .ok)
            expectStructure(shown.data, Self.contactStructure)
            expectFragment(shown, [("first_name", "roger"), ("object", "contact")])

            let partial = try await me.contact("half", extra: [("is_partial", true)])
            let partialShown = try await me.get("/api/contacts/\(partial)")
            expectStructure(partialShown.data, Self.partialStructure)
            #expect(partialShown.data?["addresses"] == nil)
            #expect(partialShown.data?["url"] == nil)
            #expect(ids(try await me.get("/api/contacts")) == [roger], "partial contacts are not listed")

            #expect(try await me.post("/api/me/contact", ["contact_id": .int(roger)]).status == .ok)
            expectFragment(try await me.get("/api/contacts/\(roger)"), [("id", .int(roger)), ("is_me", true)])
            expectFragment(try await me.get("/api/me"), [("object", "user"), ("first_name", "roger")])
            expectNotFound(try await other.post("/api/me/contact", ["contact_id": .int(roger)]))
            expectDataError(
                try await me.post("/api/me/contact", ["contact_id": 0]), ["The selected contact id is invalid."])
        }
    }

    @Test(arguments: Engine.available)
    func createsContactsAndSaysWhatIsMissing(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let genders = try await me.get("/api/genders")
            let man = try #require(genders.data?.arrayValue?.first { $0["type"] == "M" }?["id"]?.intValue)
            let created = try await me.post(
                "/api/contacts/",
                [
                    "first_name": "John", "middle_name": "Freaking", "last_name": "Doe", "nickname": "Titi",
                    "gender_id": .int(man), "description": "A great guy", "is_partial": false,
                    "is_birthdate_known": false, "is_deceased": false, "is_deceased_date_known": false,
                ])
            #expect(created.status == .created)
            expectStructure(created.data, Self.contactStructure)
            #expect((created.dataID ?? 0) > 0)
            expectFragment(
                created,
                [
                    ("complete_name", "John Freaking Doe"), ("initials", "JFD"), ("gender", "Man"),
                    ("gender_type", "M"),
                    ("is_starred", false), ("is_dead", false),
                ])

            let missing = try await me.post("/api/contacts", ["first_name": "John", "last_name": "Doe"])
            expectDataError(
                missing,
                [
                    "The is birthdate known field is required.", "The is deceased field is required.",
                    "The is deceased date known field is required.",
                ])
            expectDataError(
                try await me.post(
                    "/api/contacts",
                    ["first_name": "", "is_birthdate_known": "maybe", "is_deceased": 0, "is_deceased_date_known": "0"]),
                ["The first name field is required.", "The is birthdate known field must be true or false."])
            let long = String(repeating: "x", count: 256)
            expectDataError(
                try await me.post(
                    "/api/contacts",
                    [
                        "first_name": .string(long), "is_birthdate_known": 0, "is_deceased": 0,
                        "is_deceased_date_known": 0,
                    ]),
                ["The first name must not be greater than 255 characters."])
            #expect(ids(try await me.get("/api/contacts")) == [try #require(created.dataID)], "refusals add nothing")
        }
    }

    /// A create answers with the contact as the read that follows shows it, whatever the create
    /// set (a create builds its answer from what it wrote, decision 99).
    @Test(arguments: Engine.available)
    func aCreateAnswersWithTheContactAReadShows(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            let genders = try await me.get("/api/genders")
            let woman = try #require(genders.data?.arrayValue?.first { $0["type"] == "F" }?["id"]?.intValue)
            let variants: [[(String, JSONTree)]] = [
                [],
                [("last_name", "Lovelace"), ("nickname", "Ada"), ("gender_id", .int(woman)), ("description", "Countess")],
                [
                    ("is_birthdate_known", true), ("birthdate_day", 10), ("birthdate_month", 12),
                    ("birthdate_year", 1815), ("birthdate_is_age_based", false), ("birthdate_add_reminder", true),
                ],
                [
                    ("is_deceased", true), ("is_deceased_date_known", true), ("deceased_date_day", 27),
                    ("deceased_date_month", 11), ("deceased_date_year", 1852), ("deceased_date_add_reminder", true),
                ],
                [("is_birthdate_known", true), ("birthdate_is_age_based", true), ("birthdate_age", 36)],
                [("email", "ada@example.com")],
                [("is_partial", true)],
            ]
            for variant in variants {
                for with in ["", "?with=contactfields"] {
                    var body = JSONObject([
                        ("first_name", "Augusta"), ("is_birthdate_known", false), ("is_deceased", false),
                        ("is_deceased_date_known", false),
                    ])
                    for (key, value) in variant { body[key] = value }
                    let created = try await me.post("/api/contacts\(with)", .object(body))
                    #expect(created.status == .created, "\(variant): \(created.text)")
                    let id = try #require(created.dataID)
                    let read = try await me.get("/api/contacts/\(id)\(with)")
                    // As text: a difference then shows as two readable JSON documents.
                    #expect(created.data?.text == read.data?.text, "\(variant) \(with)")
                }
            }
            // The ones with a date reminder say so in their statistics.
            let reminded = try await me.get("/api/contacts?query=Augusta&limit=100")
            #expect(reminded.data?.arrayValue?.filter { $0["statistics"]?["number_of_reminders"] == 1 }.count == 4)
        }
    }

    @Test(arguments: Engine.available)
    func birthdatesAndDeceasedDatesAsMonicaStoresThem(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            func create(_ extra: [(String, JSONTree)]) async throws -> MonicaAnswer {
                var body = JSONObject([
                    ("first_name", "John"), ("is_birthdate_known", false), ("is_deceased", false),
                    ("is_deceased_date_known", false),
                ])
                for (key, value) in extra { body[key] = value }
                return try await me.post("/api/contacts", .object(body))
            }
            let exact = try await create([
                ("is_birthdate_known", true), ("birthdate_day", 10), ("birthdate_month", 10), ("birthdate_year", 1980),
                ("birthdate_is_age_based", false), ("birthdate_add_reminder", true),
            ])
            #expect(exact.status == .created)
            #expect(
                exact.data?["information"]?["dates"]?["birthdate"]
                    == ["is_age_based": false, "is_year_unknown": false, "date": "1980-10-10T00:00:00Z"])
            #expect(exact.data?["statistics"]?["number_of_reminders"] == 1, "the birthday reminder")

            let noYear = try await create([
                ("is_birthdate_known", true), ("birthdate_day", 10), ("birthdate_month", 10), ("birthdate_year", 0),
            ])
            #expect(
                noYear.data?["information"]?["dates"]?["birthdate"]
                    == ["is_age_based": false, "is_year_unknown": true, "date": "2018-10-10T00:00:00Z"])
            let byAge = try await create([
                ("is_birthdate_known", true), ("birthdate_is_age_based", true), ("birthdate_age", 30),
            ])
            #expect(
                byAge.data?["information"]?["dates"]?["birthdate"]
                    == ["is_age_based": true, "is_year_unknown": false, "date": "1988-01-01T00:00:00Z"])
            let deceased = try await create([
                ("is_deceased", true), ("is_deceased_date_known", true), ("deceased_date_day", 10),
                ("deceased_date_month", 10), ("deceased_date_year", 1900),
            ])
            #expect(deceased.data?["information"]?["dates"]?["deceased_date"]?["date"] == "1900-10-10T00:00:00Z")
            #expect(deceased.data?["is_dead"] == true)
            #expect(deceased.data?["complete_name"] == "John ⚰")

            expectDataError(
                try await create([("is_birthdate_known", true), ("birthdate_year", 1980)]),
                ["The day field is required.", "The month field is required."])
            expectDataError(
                try await create([("is_birthdate_known", true), ("birthdate_day", 31), ("birthdate_month", 2)]),
                ["The birthdate is not a valid date."])
        }
    }

    @Test(arguments: Engine.available)
    func updatesAContactAndRefusesOthersAndIncompleteOnes(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, other, _ in
            let id = try await me.contact("Jane", "Doe")
            let updated = try await me.put(
                "/api/contacts/\(id)",
                [
                    "first_name": "John", "last_name": "Doe", "is_partial": false, "is_birthdate_known": true,
                    "birthdate_day": 1, "birthdate_month": 1, "birthdate_year": 1900, "birthdate_is_age_based": false,
                    "birthdate_age": 0, "birthdate_add_reminder": true, "is_deceased": false,
                    "is_deceased_date_known": false,
                ])
            #expect(updated.status == .ok)
            expectStructure(updated.data, Self.contactStructure)
            expectFragment(updated, [("object", "contact"), ("id", .int(id)), ("first_name", "John")])
            #expect(updated.data?["information"]?["dates"]?["birthdate"]?["date"] == "1900-01-01T00:00:00Z")

            expectNotFound(
                try await other.put(
                    "/api/contacts/\(id)",
                    [
                        "first_name": "X", "is_birthdate_known": false, "is_deceased": false,
                        "is_deceased_date_known": false,
                    ]))
            expectDataError(
                try await me.put("/api/contacts/\(id)", ["first_name": "Jane", "last_name": "Doe"]),
                ["The is birthdate known field is required.", "The is deceased date known field is required."])
            #expect(try await me.get("/api/contacts/\(id)").data?["first_name"] == "John", "refusals change nothing")
            // PATCH is the same update, and is_deceased may be left out (Monica failed with a 500).
            let patched = try await me.call(
                .patch, "/api/contacts/\(id)",
                ["first_name": "Johnny", "is_birthdate_known": false, "is_deceased_date_known": false])
            #expect(patched.status == .ok)
            #expect(patched.data?["first_name"] == "Johnny")
            #expect(patched.data?["last_name"] == "Doe", "fields not sent are kept")
        }
    }

    @Test(arguments: Engine.available)
    func workFoodAndIntroductionUpdateTheirPartsOnly(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, start: Date(timeIntervalSince1970: 1_575_183_600)) { me, other, _ in
            let id = try await me.contact("John")
            let friend = try await me.contact("Friend")
            let career = try await me.put("/api/contacts/\(id)/work", ["job": "Astronaut", "company": "NASA"])
            #expect(career.data?["information"]?["career"] == ["job": "Astronaut", "company": "NASA"])
            let mom = try await me.put("/api/contacts/\(id)/work", ["job": "Mom", "company": nil])
            #expect(mom.data?["information"]?["career"] == ["job": "Mom", "company": nil])
            #expect(ids(try await me.get("/api/contacts?query=astronaut")).isEmpty)
            #expect(ids(try await me.get("/api/contacts?query=mom")) == [id], "the job is searchable")
            expectNotFound(try await other.put("/api/contacts/\(id)/work", ["job": "xx", "company": "xx"]))

            let food = try await me.put(
                "/api/contacts/\(id)/food", ["food_preferences": "Pas de laitages, le lait c'est le mal"])
            expectFragment(food, [("food_preferences", "Pas de laitages, le lait c'est le mal")])
            expectFragment(
                try await me.put("/api/contacts/\(id)/food", ["food_preferences": nil]), [("food_preferences", nil)])
            expectNotFound(try await other.put("/api/contacts/\(id)/food"))

            let met = try await me.put(
                "/api/contacts/\(id)/introduction",
                [
                    "is_date_known": true, "year": 2006, "month": 1, "day": 2, "met_through_contact_id": .int(friend),
                    "general_information": "At school", "add_reminder": true,
                ])
            expectFragment(
                met,
                [("first_met_date", ["date": "2006-01-02T00:00:00Z", "is_age_based": false, "is_year_unknown": false])])
            #expect(met.data?["information"]?["how_you_met"]?["first_met_through_contact"]?["id"] == .int(friend))
            #expect(met.data?["statistics"]?["number_of_reminders"] == 1)
            let byAge = try await me.put(
                "/api/contacts/\(id)/introduction", ["is_date_known": true, "is_age_based": true, "age": 13])
            expectFragment(
                byAge,
                [("first_met_date", ["date": "2006-01-01T00:00:00Z", "is_age_based": true, "is_year_unknown": false])])
            #expect(byAge.data?["statistics"]?["number_of_reminders"] == 0, "age-based dates have no reminder")
            expectNotFound(try await other.put("/api/contacts/\(id)/introduction", ["is_date_known": false]))

            let partial = try await me.contact("half", extra: [("is_partial", true)])
            for path in ["work", "food"] {
                expectDataError(
                    try await me.put("/api/contacts/\(partial)/\(path)"), ["The contact can't be a partial contact"])
            }
            expectDataError(
                try await me.put(
                    "/api/contacts/\(partial)/introduction",
                    ["is_date_known": true, "year": 2006, "month": 1, "day": 2]),
                ["The contact can't be a partial contact"])
        }
    }

    @Test(arguments: Engine.available)
    func withContactFieldsAddsFieldsAndTheLastThreeNotes(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, server in
            let id = try await me.contact("John", extra: [("email", "john@doe.com")])
            for index in 1...4 {
                _ = try await me.post("/api/notes", ["contact_id": .int(id), "body": .string("note \(index)")])
                server.clock.advance(by: 1)
            }
            let listed = try await me.get("/api/contacts?with=contactfields&page=1&limit=10")
            expectStructure(
                listed.json,
                [
                    "data.*.contactFields.*.id", "data.*.contactFields.*.content",
                    "data.*.contactFields.*.contact_field_type.fontawesome_icon",
                    "data.*.contactFields.*.contact_field_type.protocol",
                    "data.*.contactFields.*.contact_field_type.delible",
                    "data.*.contactFields.*.account.id", "data.*.contactFields.*.contact.id", "data.*.notes",
                ])
            expectFragment(listed, [("object", "contactfield"), ("content", "john@doe.com"), ("name", "Email")])
            let shown = try await me.get("/api/contacts/\(id)?with=contactfields")
            let notes = shown.data?["notes"]?.arrayValue?.compactMap { $0["body"]?.stringValue }
            #expect(notes == ["note 4", "note 3", "note 2"])
            expectFragment(shown, [("birthdate", ["is_age_based": nil, "is_year_unknown": nil, "date": nil])])
            #expect(try await me.get("/api/contacts/\(id)").data?["contactFields"] == nil)
        }
    }

    /// A full contact is written straight to bytes (`FullContact`): its keys must come in Monica's
    /// order, as a recorded Monica answer has them, wherever both have the key, in the show, the
    /// list and the search alike.
    @Test(arguments: Engine.available)
    func aFullContactKeepsMonicasKeyOrder(_ engine: Engine) async throws {
        let recorded = try #require(
            JSONTree.parse(try Data(contentsOf: RepositoryPaths.root.appendingPathComponent("Tests/fixtures/monica/contact-42.json")))?[
                "data"])
        try await MonicaHarness.run(engine) { me, _, _ in
            let id = try await me.contact("John", "Doe", extra: [("email", "john@doe.com")])
            #expect(try await me.put("/api/contacts/\(id)/work", ["job": "Carpenter", "company": "Acme"]).status == .ok)
            let son = try await me.contact("Jonathan", "Swift")
            let types = try await me.get("/api/relationshiptypes?limit=100")
            let sonType = try #require(types.data?.arrayValue?.first { $0["name"] == "uncle" }?["id"]?.intValue)
            #expect(
                try await me.post(
                    "/api/relationships", ["contact_is": .int(id), "relationship_type_id": .int(sonType), "of_contact": .int(son)]
                ).status == .created)
            #expect(try await me.post("/api/addresses", ["contact_id": .int(id), "city": "Paris", "country": "FR"]).status == .created)
            _ = try await me.post("/api/contacts/\(id)/setTags", ["tags": ["friends"]])
            _ = try await me.post("/api/notes", ["contact_id": .int(id), "body": "a note"])

            let shown = try #require(try await me.get("/api/contacts/\(id)?with=contactfields").data)
            let listed = try #require(
                try await me.get("/api/contacts?with=contactfields&limit=100").data?.arrayValue?.first { $0["id"] == .int(id) })
            let found = try #require(
                try await me.get("/api/contacts?with=contactfields&query=John%20Doe").data?.arrayValue?.first { $0["id"] == .int(id) })
            for contact in [shown, listed, found] {
                #expect(Self.keys(contact) == Self.keys(recorded), "every key Monica sends, in its order")
                for path in [
                    ["information"], ["information", "dates"], ["information", "career"], ["information", "how_you_met"],
                    ["information", "relationships"], ["information", "relationships", "family"], ["statistics"],
                ] {
                    let ours = Self.keys(Self.at(path, in: contact))
                    let monicas = Self.keys(Self.at(path, in: recorded))
                    #expect(ours.filter(monicas.contains) == monicas.filter(ours.contains), "\(path): \(ours) vs \(monicas)")
                    #expect(!ours.isEmpty, "\(path) is written")
                }
            }
            #expect(shown["addresses"]?[0]?["city"] == "Paris")
            #expect(shown["tags"]?[0]?["name"] == "friends")
            #expect(shown["notes"]?[0]?["body"] == "a note")
            #expect(shown["information"]?["relationships"]?["family"]?["contacts"]?[0]?["contact"]?["first_name"] == "Jonathan")
            #expect(shown["information"]?["career"]?["job"] == "Carpenter")
            #expect(shown["statistics"]?["number_of_notes"] == 1)
        }
    }

    private static func keys(_ tree: JSONTree?) -> [String] { tree?.objectValue?.keys ?? [] }

    private static func at(_ path: [String], in tree: JSONTree) -> JSONTree? {
        path.reduce(Optional(tree)) { $0?[$1] }
    }

    @Test(arguments: Engine.available)
    func deletingAContactRemovesItEverywhere(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, other, _ in
            let id = try await me.contact("John")
            expectNotFound(try await other.delete("/api/contacts/\(id)"))
            let deleted = try await me.delete("/api/contacts/\(id)")
            #expect(deleted.status == .ok)
            #expect(deleted.json == ["deleted": true, "id": .string(String(id))])
            expectNotFound(try await me.get("/api/contacts/\(id)"))
            #expect(ids(try await me.get("/api/contacts")).isEmpty)
            expectNotFound(try await me.delete("/api/contacts/\(id)"))
        }
    }
}
