import Foundation
import Hummingbird
import KithCore
import SQLKit

/// `GET /api` (the welcome and the index of lists), `/api/me`, `/api/me/contact`, `/api/countries`.
struct AccountAPI {
    static let listNames = [
        ("activities_url", "activities"), ("addresses_url", "addresses"), ("calls_url", "calls"),
        ("contacts_url", "contacts"), ("conversations_url", "conversations"), ("countries_url", "countries"),
        ("currencies_url", "currencies"), ("documents_url", "documents"), ("journal_url", "journal"),
        ("notes_url", "notes"), ("relationships_url", "contacts/:contactId/relationships"),
        ("reminders_url", "reminders"), ("statistics_url", "statistics"),
    ]

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("") { scope in
            MonicaResponse.make([
                "success": ["message": "Welcome to Monica"],
                "links": .object(JSONObject(Self.listNames.map { ($0.0, .string(scope.url($0.1))) })),
            ])
        }
        routes.get("me") { scope in try await me(scope, meContactID: scope.account.meContactID) }
        routes.post("me/contact") { scope in
            let input = try MonicaValidator.validate(
                try await scope.input(), [FieldRules("contact_id", .required, .integer)])
            let contactID = input.int("contact_id") ?? 0
            _ = try await scope.read { sql in
                try await ResourceSteps.existing(sql, scope, ContactTable.table, id: contactID, attribute: "contact id")
            }
            try await scope.accounts.setMeContact(account: scope.accountID, contactID: contactID, now: scope.now)
            return try await me(scope, meContactID: contactID)
        }
        routes.delete("me/contact") { scope in
            try await scope.accounts.setMeContact(account: scope.accountID, contactID: nil, now: scope.now)
            return try await me(scope, meContactID: nil)
        }
        routes.get("countries") { _ in MonicaResponse.make(Countries.listBody) }
    }

    /// The signed-in user as Monica describes one. Kith accounts have an email, not a name: the
    /// name fields come from the "me" contact when there is one.
    private func me(_ scope: MonicaScope, meContactID: Int64?) async throws -> Response {
        let user = try scope.context.requireUser()
        return try await scope.read { sql in
            var meRow: MonicaRow?
            var short: JSONTree?
            if let meContactID,
                let row = try await MonicaQueries.find(
                    sql, ContactTable.table, account: scope.accountID, id: meContactID)
            {
                meRow = row
                short = try await ContactPresenter.load(sql, scope).short(row)
            }
            let first = meRow?.text("first_name")
            let last = meRow?.text("last_name")
            let created = MonicaTimestamp.format(millis: user.createdAt.epochMillis)
            return MonicaResponse.data([
                "id": .int(scope.accountID), "uuid": .string(user.id.lowercased), "object": "user",
                "first_name": .nullable(first), "last_name": .nullable(last),
                "name": .string([first, last].compactMap { $0 }.joined(separator: " ")), "email": .string(user.email),
                "me_contact": .nullable(short), "timezone": "UTC",
                "currency": ["id": 2, "object": "currency", "iso": "USD", "name": "US Dollar", "symbol": "$"],
                "locale": "en", "is_policy_compliant": true, "account": ["id": .int(scope.accountID)],
                "created_at": .string(created), "updated_at": .string(created),
            ])
        }
    }
}
