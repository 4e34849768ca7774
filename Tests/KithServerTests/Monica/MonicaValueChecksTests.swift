import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// The checks people expect of what they type (docs/monica.md, "Stricter where Monica stores
/// anything"): an email field holds an email, a phone field a number, a gift's link a web address
/// and its value no debt, a birthday has happened. Each refusal is 422 with the field's sentence
/// and changes nothing, on every engine.
@Suite("Monica API: values checked as people expect")
struct MonicaValueChecksTests {
    @Test(arguments: Engine.available)
    func emailAndPhoneFieldsMustLookLikeThem(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let types = try await me.get("/api/contactfieldtypes")
            let byName = Dictionary(
                uniqueKeysWithValues: (types.data?.arrayValue ?? []).compactMap { type in
                    type["name"]?.stringValue.flatMap { name in type["id"]?.intValue.map { (name, $0) } }
                })
            let email = try #require(byName["Email"])
            let phone = try #require(byName["Phone"])
            let twitter = try #require(byName["Twitter"])
            let ada = try await me.contact("Ada")
            func field(_ type: Int64, _ data: String) -> JSONTree {
                ["contact_id": .int(ada), "contact_field_type_id": .int(type), "data": .string(data)]
            }

            for bad in ["ada", "ada@", "@example.com", "ada@example", "ada lovelace@example.com", "a@b@example.com"] {
                expectDataError(
                    try await me.post("/api/contactfields", field(email, bad)),
                    ["The data must be a valid email address."])
            }
            let phoneRule = "The data must be a phone number: digits, spaces and + ( ) - . only, at least 3 digits."
            for bad in ["call me", "12", "+44 20 7946 0958 ext 12", "555-CAKE"] {
                expectDataError(try await me.post("/api/contactfields", field(phone, bad)), [phoneRule])
            }
            #expect(ids(try await me.get("/api/contacts/\(ada)/contactfields")).isEmpty, "nothing was saved")

            let saved = try await me.post("/api/contactfields", field(email, "ada@example.com"))
            #expect(saved.status == .created)
            for good in ["+44 (0)20 7946-0958", "555.0100", "112"] {
                #expect(try await me.post("/api/contactfields", field(phone, good)).status == .created, "\(good)")
            }
            #expect(
                try await me.post("/api/contactfields", field(twitter, "@ada, not an address")).status == .created,
                "a field of another kind holds anything")

            // A change to a bad value is refused and leaves the field as it was.
            let id = try #require(saved.dataID)
            expectDataError(
                try await me.put("/api/contactfields/\(id)", field(email, "not an email")),
                ["The data must be a valid email address."])
            // Moving a field to the Email type checks its value as an email.
            let number = try await me.post("/api/contactfields", field(phone, "+1 555 0100"))
            expectDataError(
                try await me.put("/api/contactfields/\(try #require(number.dataID))", field(email, "+1 555 0100")),
                ["The data must be a valid email address."])
            #expect(try await me.get("/api/contactfields/\(id)").data?["content"] == "ada@example.com")

            // A new contact's email is checked too, and a refused one makes no contact.
            expectDataError(
                try await me.post(
                    "/api/contacts",
                    [
                        "first_name": "Bad", "email": "bad@", "is_birthdate_known": false, "is_deceased": false,
                        "is_deceased_date_known": false,
                    ]), ["The email must be a valid email address."])
            #expect(try await me.get("/api/contacts").json["meta"]?["total"] == 1)
        }
    }

    @Test(arguments: Engine.available)
    func aGiftsLinkIsAWebAddressAndItsValueIsNotNegative(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let ada = try await me.contact("Ada")
            func gift(_ extra: [(String, JSONTree)]) -> JSONTree {
                var body = JSONObject([("contact_id", .int(ada)), ("name", "Teapot"), ("status", "idea")])
                for (key, value) in extra { body[key] = value }
                return .object(body)
            }
            let linkRule = "The url must be a valid URL starting with http:// or https://."
            for bad in [
                "javascript:alert(1)", "shop.example/teapot", "ftp://shop.example/teapot", "https://",
                "file:///etc/passwd",
            ] {
                expectDataError(try await me.post("/api/gifts", gift([("url", .string(bad))])), [linkRule])
            }
            expectDataError(
                try await me.post("/api/gifts", gift([("amount", -0.01)])), ["The amount must be at least 0."])
            #expect(ids(try await me.get("/api/gifts")).isEmpty, "nothing was saved")

            let made = try await me.post(
                "/api/gifts", gift([("url", "https://shop.example/teapot?colour=blue"), ("amount", "12.5")]))
            #expect(made.status == .created, "\(made.text)")
            // The value is written in the account's currency, the one /api/me names.
            let currency = try await me.get("/api/me").data?["currency"]
            let symbol = try #require(currency?["symbol"]?.stringValue)
            #expect(currency?["iso"] == "USD")
            expectFragment(made, [("amount_with_currency", .string(symbol + "12.50"))])
            let id = try #require(made.dataID)
            expectDataError(
                try await me.put("/api/gifts/\(id)", gift([("amount", -5)])), ["The amount must be at least 0."])
            #expect(try await me.get("/api/gifts/\(id)").data?["amount"] == 12.5)
            #expect(try await me.post("/api/gifts", gift([("amount", 0)])).status == .created, "a free gift")
        }
    }

    @Test(arguments: Engine.available)
    func aBirthdayADeathAndAFirstMeetingHaveHappened(_ engine: Engine) async throws {
        // 2018-01-01 07:00 UTC: 2018-01-02 is already today in Kiribati (UTC+14), the 3rd nowhere.
        try await MonicaHarness.run(engine, start: MonicaHarness.monicaTestNow) { me, _, _ in
            func contact(_ extra: [(String, JSONTree)]) -> JSONTree {
                var body = JSONObject([
                    ("first_name", "Ada"), ("is_birthdate_known", false), ("is_deceased", false),
                    ("is_deceased_date_known", false),
                ])
                for (key, value) in extra { body[key] = value }
                return .object(body)
            }
            func born(_ year: Int64, _ month: Int64, _ day: Int64) -> [(String, JSONTree)] {
                [
                    ("is_birthdate_known", true), ("birthdate_day", .int(day)), ("birthdate_month", .int(month)),
                    ("birthdate_year", .int(year)),
                ]
            }
            expectDataError(
                try await me.post("/api/contacts", contact(born(2018, 1, 3))),
                ["The birthdate must be a date before or equal to today."])
            expectDataError(
                try await me.post(
                    "/api/contacts",
                    contact([
                        ("is_deceased", true), ("is_deceased_date_known", true), ("deceased_date_day", 1),
                        ("deceased_date_month", 6), ("deceased_date_year", 2030),
                    ])), ["The deceased date must be a date before or equal to today."])
            #expect(try await me.get("/api/contacts").json["meta"]?["total"] == 0, "nothing was saved")

            #expect(try await me.post("/api/contacts", contact(born(2018, 1, 2))).status == .created)
            #expect(try await me.post("/api/contacts", contact(born(1, 1, 1))).status == .created, "year 1")
            // A birthday without its year is a day of any year: later this year is fine.
            let yearless = try await me.post(
                "/api/contacts",
                contact([
                    ("is_birthdate_known", true), ("birthdate_day", 10), ("birthdate_month", 12),
                    ("birthdate_add_reminder", true),
                ]))
            #expect(yearless.status == .created, "\(yearless.text)")
            let id = try #require(yearless.dataID)
            expectDataError(
                try await me.put("/api/contacts/\(id)", contact(born(2019, 12, 10))),
                ["The birthdate must be a date before or equal to today."])
            #expect(
                try await me.get("/api/contacts/\(id)").data?["information"]?["dates"]?["birthdate"]?["is_year_unknown"]
                    == true, "the refused change left the birthday as it was")
            expectDataError(
                try await me.put(
                    "/api/contacts/\(id)/introduction", ["is_date_known": true, "year": 2019, "month": 1, "day": 1]),
                ["The date must be a date before or equal to today."])
        }
    }
}
