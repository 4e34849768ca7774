import Foundation
import KithCore

/// The signed-in user as Monica describes one. Kith accounts have an email, not a name: the name
/// fields come from the "me" contact when there is one.
enum MePresenter {
    static func present(
        _ account: WithContacts<MonicaAccount>, user: AuthenticatedUser, _ presentation: MonicaPresentation
    )
        -> JSONTree
    {
        let me = account.value.meContactID.flatMap { account.contacts[$0] }
        let first = me?.record.firstName
        let last = me?.record.lastName
        let created = MonicaTimestamp.format(millis: user.createdAt.epochMillis)
        return [
            "id": .int(account.value.id), "uuid": .string(user.id.lowercased), "object": "user",
            "first_name": .nullable(first), "last_name": .nullable(last),
            "name": .string([first, last].compactMap { $0 }.joined(separator: " ")), "email": .string(user.email),
            "me_contact": .nullable(me.map { ContactPresenter.short($0, presentation) }), "timezone": "UTC",
            "currency": presentation.currency.json,
            "locale": "en", "is_policy_compliant": true, "account": ["id": .int(account.value.id)],
            "created_at": .string(created), "updated_at": .string(created),
        ]
    }

    /// `GET /api`: the welcome and the index of lists.
    static let listNames = [
        ("activities_url", "activities"), ("addresses_url", "addresses"), ("calls_url", "calls"),
        ("contacts_url", "contacts"), ("conversations_url", "conversations"), ("countries_url", "countries"),
        ("currencies_url", "currencies"), ("documents_url", "documents"), ("journal_url", "journal"),
        ("notes_url", "notes"), ("relationships_url", "contacts/:contactId/relationships"),
        ("reminders_url", "reminders"), ("statistics_url", "statistics"),
    ]

    static func welcome(_ presentation: MonicaPresentation) -> JSONTree {
        [
            "success": ["message": "Welcome to Monica"],
            "links": .object(JSONObject(listNames.map { ($0.0, .string(presentation.url($0.1))) })),
        ]
    }
}
