import Foundation
import HTTPTypes
import HummingbirdTesting
import KithCore
import KithTestSupport
import NIOCore
import Testing

@testable import KithServer

/// What every `/api` route shares: sign-in, envelopes, query parameters, lenient input, limits.
@Suite("Monica API: basics")
struct MonicaBasicsTests {
    @Test(arguments: Engine.available)
    func withoutAValidTokenEveryAnswerIsUnauthenticatedJSON(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            for accept in ["application/json", "text/html", "*/*"] {
                let response = try await me.client.execute(
                    uri: "/api/contacts", method: .get, headers: [.accept: accept], body: nil)
                #expect(response.status == .unauthorized)
                #expect(String(buffer: response.body) == #"{"message":"Unauthenticated."}"#)
            }
            let forged = MonicaUser(client: me.client, token: "kpt_forged")
            let answer = try await forged.get("/api/me")
            #expect(answer.status == .unauthorized)
            #expect(answer.json == ["message": "Unauthenticated."])
        }
    }

    @Test(arguments: Engine.available)
    func rootMeAndCountries(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let root = try await me.get("/api")
            #expect(root.status == .ok)
            expectFragment(root, [("success", ["message": "Welcome to Monica"])])
            #expect(root["links"]?["contacts_url"] == "https://kith.example/api/contacts")

            let user = try await me.get("/api/me")
            expectStructure(
                user.json,
                [
                    "data.id", "data.object", "data.first_name", "data.last_name", "data.email", "data.timezone",
                    "data.currency",
                    "data.locale", "data.is_policy_compliant", "data.account.id", "data.created_at", "data.updated_at",
                ])
            expectFragment(user, [("object", "user"), ("email", "me@example.com")])

            let countries = try await me.get("/api/countries")
            #expect(countries.data?["de"] == ["id": "DE", "iso": "DE", "name": "Germany", "object": "country"])
            #expect(countries.data?.objectValue?.count == 249, "every ISO 3166 country")
            let positions = ["\"af\":", "\"ax\":", "\"al\":", "\"dk\":", "\"de\":"].map {
                countries.text.range(of: $0)?.lowerBound
            }
            #expect(positions.compactMap { $0 }.count == 5)
            #expect(
                positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(),
                "in name order: Afghanistan, Åland, Albania…")
            #expect(countries["links"] == nil, "not paginated")
        }
    }

    @Test(arguments: Engine.available)
    func queryParametersAreCheckedAsMonicaDoes(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let tooBig = try await me.get("/api/contacts?limit=10000")
            #expect(tooBig.status == .badRequest)
            #expect(tooBig.json == ["error": ["message": "The limit parameter is too big", "error_code": 30]])
            #expect(try await me.get("/api/contacts?limit=100").status == .ok)
            let sort = try await me.get("/api/contacts?sort=anything")
            #expect(sort.status == .badRequest)
            #expect(sort.json == ["error": ["message": "The sorting criteria is invalid", "error_code": 39]])
            #expect(try await me.get("/api/notes?sort=-favorited_at").status == .ok)
            #expect(
                try await me.get("/api/contacts?sort=favorited_at").status == .badRequest,
                "contacts have no favorited_at")
        }
    }

    @Test(arguments: Engine.available)
    func malformedBodiesAndUnknownRoutesGetClearErrors(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let response = try await me.client.execute(
                uri: "/api/contacts", method: .post,
                headers: [.authorization: "Bearer \(me.token)", .contentType: "application/json"],
                body: ByteBuffer(string: "{not json"))
            #expect(response.status == .badRequest)
            #expect(
                JSONTree.parse(Data(buffer: response.body)) == [
                    "error": ["message": "Problems parsing JSON", "error_code": 37]
                ])
            let unknown = try await me.get("/api/nothing/here")
            #expect(unknown.status == .notFound)
            #expect(unknown.json == ["message": "The route api/nothing/here could not be found."])
            let notANumber = try await me.get("/api/contacts/abc")
            expectNotFound(notANumber)
            #expect(ids(try await me.get("/api/contacts")).isEmpty, "nothing was created")
        }
    }

    @Test(arguments: Engine.available)
    func formBodiesTrailingSlashesAndLenientValues(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            let form = try await me.call(
                .post, "/api/contacts/", nil,
                headers: [.contentType: "application/x-www-form-urlencoded"])
            expectDataError(form, ["The first name field is required."])
            let response = try await me.client.execute(
                uri: "/api/contacts/", method: .post,
                headers: [
                    .authorization: "Bearer \(me.token)", .contentType: "application/x-www-form-urlencoded",
                    .accept: "application/json",
                ],
                body: ByteBuffer(
                    string:
                        "first_name=Ren%C3%A9e+Marie&is_birthdate_known=0&is_deceased=false&is_deceased_date_known=%220%22"
                ))
            // "\"0\"" is not a boolean: Laravel refuses it, so does Kith.
            #expect(response.status == .unprocessableContent)
            let accepted = try await me.client.execute(
                uri: "/api/contacts/", method: .post,
                headers: [.authorization: "Bearer \(me.token)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(
                    string: "first_name=Ren%C3%A9e+Marie&is_birthdate_known=0&is_deceased=1&is_deceased_date_known=0"))
            #expect(accepted.status == .created)
            let created = try #require(JSONTree.parse(Data(buffer: accepted.body)))
            #expect(created["data"]?["first_name"] == "Renée Marie")
            #expect(created["data"]?["is_dead"] == true)
            let json = try await me.post(
                "/api/contacts/",
                ["first_name": "  Bob  ", "is_birthdate_known": "0", "is_deceased": 0, "is_deceased_date_known": false])
            #expect(json.status == .created)
            #expect(json.data?["first_name"] == "Bob", "strings are trimmed")
            #expect(try await me.get("/api/contacts/").data?.arrayValue?.count == 2)
        }
    }

    @Test(arguments: Engine.available)
    func sixtyRequestsAMinuteThenTooManyAttempts(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine, configure: { $0.monica.rateLimitPerMinute = 60 }) { me, other, server in
            var last: MonicaAnswer?
            for index in 1...60 {
                let answer = try await me.get(index % 2 == 0 ? "/api/contacts" : "/api/contacts/999")
                #expect(answer.headers[HTTPField.Name("X-RateLimit-Limit")!] == "60")
                #expect(answer.headers[HTTPField.Name("X-RateLimit-Remaining")!] == String(60 - index))
                last = answer
            }
            #expect(last?.status == .ok)
            let refused = try await me.get("/api/contacts")
            #expect(refused.status == .tooManyRequests)
            #expect(
                refused.json == [
                    "error": ["message": "Too many attempts, please slow down the request", "error_code": 34]
                ])
            #expect(refused.headers[.retryAfter] == "60")
            #expect(refused.headers[HTTPField.Name("X-RateLimit-Remaining")!] == "0")
            #expect(try await other.get("/api/contacts").status == .ok, "each user has their own allowance")
            server.clock.advance(by: 61)
            #expect(try await me.get("/api/contacts").status == .ok, "a new minute, a new allowance")
        }
    }

    @Test(arguments: Engine.available)
    func oauthLoginGivesATokenTheAPIAccepts(_ engine: Engine) async throws {
        try await MonicaHarness.run(engine) { me, _, _ in
            func login(_ body: String) async throws -> (HTTPResponse.Status, JSONTree) {
                let response = try await me.client.execute(
                    uri: "/oauth/login", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: body))
                return (response.status, JSONTree.parse(Data(buffer: response.body)) ?? .null)
            }
            let (status, body) = try await login(#"{"email":"me@example.com","password":"correct horse"}"#)
            #expect(status == .ok)
            #expect(body["expires_in"] == .int(31_536_000))
            let token = try #require(body["access_token"]?.stringValue)
            let mobile = MonicaUser(client: me.client, token: token)
            expectFragment(try await mobile.get("/api/me"), [("email", "me@example.com")])

            let (wrong, wrongBody) = try await login(#"{"email":"me@example.com","password":"wrong horse"}"#)
            #expect(wrong == .unauthorized)
            #expect(wrongBody == ["error": ["message": "Not authorized", "error_code": 42]])
            let (missing, missingBody) = try await login("{}")
            #expect(missing == .unprocessableContent)
            #expect(
                missingBody["error"]?["message"] == ["The email field is required.", "The password field is required."])
            // Five attempts a minute from one address.
            for _ in 1...2 { _ = try await login(#"{"email":"x@example.com","password":"nope"}"#) }
            let (throttled, throttledBody) = try await login(#"{"email":"me@example.com","password":"correct horse"}"#)
            #expect(throttled == .tooManyRequests)
            #expect(throttledBody["error"]?["error_code"] == 34)
        }
    }
}
