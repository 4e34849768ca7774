import Foundation
import KithCore
import KithKit

// What `kith contacts … --json` prints: shapes of this command line (camelCase, as the other
// `kith` commands), not Monica's wire objects, so they stay the same whichever server answered.
// Keys whose value is unknown are left out; times are ISO 8601 with milliseconds, days `Y-m-d`.

/// A contact in a list (`list`, `search`), and with its details in `show`.
struct ContactJSON: Encodable {
    var id: Int
    var name: String
    var firstName: String?
    var lastName: String?
    var nickname: String?
    var job: String?
    var company: String?
    var emails: [String]
    var phones: [String]
    var tags: [String]
    var isStarred: Bool
    var lastInteraction: Date?
    // `show` only:
    var description: String?
    var gender: String?
    var birthdate: MonicaDay?
    var isDead: Bool?
    var howYouMet: String?
    var foodPreferences: String?

    init(_ contact: MonicaContact, detailed: Bool = false) {
        id = contact.id
        name = contact.displayName
        firstName = contact.firstName
        lastName = contact.lastName
        nickname = contact.nickname
        job = contact.job
        company = contact.company
        emails = contact.emails
        phones = contact.phones
        tags = contact.tags.map(\.name)
        isStarred = contact.isStarred
        lastInteraction = contact.lastInteraction
        guard detailed else { return }
        description = contact.description
        gender = contact.gender
        birthdate = contact.information?.dates?.birthdate?.date
        isDead = contact.isDead
        howYouMet = contact.information?.howYouMet?.generalInformation
        foodPreferences = contact.information?.foodPreferences
    }
}

/// `list`: one page of the contacts, in the server's order.
struct ContactPageJSON: Encodable {
    var page: Int
    var lastPage: Int
    var perPage: Int
    var total: Int
    var contacts: [ContactJSON]
    /// True when the server could not be reached and the page comes from the cache.
    var fromCache: Bool
    var offlineReason: String?
    /// When the cache last held the server's whole list.
    var cachedAt: Date?
}

/// `search`: the cached contacts that match, best first.
struct SearchJSON: Encodable {
    var query: String
    var contacts: [ContactJSON]
    var cachedAt: Date?
    var offlineReason: String?
}

/// An address, formatted as its country writes it (`lines`).
struct AddressJSON: Encodable {
    /// Negative while the address was made on this device and not yet sent.
    var id: Int
    var contactID: Int?
    var contactName: String?
    var label: String?
    var street: String?
    var city: String?
    var region: String?
    var postalCode: String?
    var countryCode: String?
    var country: String?
    var latitude: Double?
    var longitude: Double?
    var lines: [String]
    /// True while this version is only on this device (an edit waiting to be sent).
    var pending: Bool

    init(_ address: MonicaAddress, pending: Set<Int>) {
        let postal = address.postal
        id = address.id
        contactID = address.contact?.id
        contactName = address.contact?.displayName
        label = address.name
        street = address.street
        city = address.city
        region = address.province
        postalCode = address.postalCode
        countryCode = address.country?.id
        country = postal.countryDisplayName
        latitude = address.latitude
        longitude = address.longitude
        lines = postal.lines
        self.pending = address.isPending || pending.contains(address.id)
    }
}

/// `addresses ID`.
struct AddressListJSON: Encodable {
    var contactID: Int
    var contactName: String
    var addresses: [AddressJSON]
    var fromCache: Bool
}

/// `address delete`.
struct AddressDeletionJSON: Encodable {
    var deleted: Int
    var pending: Bool
}

/// `address directions`.
struct DirectionsJSON: Encodable {
    var address: AddressJSON
    var label: String
    var latitude: Double
    var longitude: Double
    /// True when the coordinates came from a geocoder (nobody typed them).
    var geocoded: Bool
    /// True when the server found them from the address's text.
    var locatedByServer: Bool
    var appleMaps: String
    var openStreetMap: String
}

/// `countries`: with what the country's address forms call the postal code and the region.
struct CountryJSON: Encodable {
    var code: String
    var name: String
    var postalCodeLabel: String
    var regionLabel: String

    init(_ country: MonicaCountry) {
        let format = AddressFormat.forCountry(country.id)
        code = country.id
        name = country.name
        postalCodeLabel = format.postalCodeLabel
        regionLabel = format.regionLabel
    }
}

/// `show ID`: the contact's whole page.
struct ContactDetailsJSON: Encodable {
    struct Person: Encodable {
        var id: Int
        var name: String
        init(_ contact: MonicaContactSummary) {
            id = contact.id
            name = contact.displayName
        }
    }

    struct Relationship: Encodable {
        /// What the other contact is to this one: "son", "friend"…
        var relationship: String
        var contact: Person
    }

    struct Note: Encodable {
        var id: Int
        var body: String
        var isFavorited: Bool
        var createdAt: Date?
    }

    struct Todo: Encodable {
        var id: Int
        var title: String
        var description: String?
        var completed: Bool
        var completedAt: Date?
        var createdAt: Date?
    }

    struct Activity: Encodable {
        var id: Int
        var summary: String
        var description: String?
        var happenedAt: MonicaDay?
        var type: String?
        var attendees: [Person]
    }

    struct Gift: Encodable {
        var id: Int
        var name: String
        /// `idea`, `offered` or `received`.
        var status: String
        var amount: String?
        var url: String?
        var comment: String?
        var date: MonicaDay?
    }

    struct Reminder: Encodable {
        var id: Int
        var title: String
        var description: String?
        var initialDate: MonicaDay?
        /// "Once", "Every year", "Every 2 weeks".
        var frequency: String
        var frequencyType: String
        var frequencyNumber: Int
    }

    struct Call: Encodable {
        var id: Int
        var calledAt: Date?
        /// Whether the contact made the call (else you did).
        var theyCalled: Bool
        var content: String?
    }

    struct Conversation: Encodable {
        struct Message: Encodable {
            var id: Int
            var writtenAt: Date?
            var byMe: Bool
            var content: String
        }

        var id: Int
        var happenedAt: Date?
        /// What it happened over ("Email", "Telegram").
        var medium: String?
        var messages: [Message]
    }

    struct Debt: Encodable {
        var id: Int
        /// You owe the contact (else the contact owes you).
        var youOwe: Bool
        var amount: String
        var reason: String?
        var settled: Bool
    }

    struct Pet: Encodable {
        var id: Int
        var name: String?
        var kind: String
    }

    struct LifeEvent: Encodable {
        var id: Int
        var happenedOn: MonicaDay?
        var type: String?
        var name: String?
        var note: String?
    }

    var contact: ContactJSON
    var addresses: [AddressJSON]
    var relationships: [Relationship]
    var notes: [Note]
    /// Open before done.
    var tasks: [Todo]
    /// Newest first, the first 10.
    var activities: [Activity]
    var hasMoreActivities: Bool
    var gifts: [Gift]
    var reminders: [Reminder]
    /// Newest first.
    var calls: [Call]
    /// Newest first.
    var conversations: [Conversation]
    /// Open ones first.
    var debts: [Debt]
    var pets: [Pet]
    /// Newest first.
    var lifeEvents: [LifeEvent]
    var fromCache: Bool
    var offlineReason: String?
    /// When these details were fetched from the server (absent if never).
    var fetchedAt: Date?
    /// Address edits of this profile not yet on the server (all contacts).
    var pendingAddressEdits: Int

    init(_ details: ContactDetails, pending: Set<Int>, pendingEdits: Int) {
        contact = ContactJSON(details.contact, detailed: true)
        addresses = details.addresses.map { AddressJSON($0, pending: pending) }
        relationships = details.related.map { Relationship(relationship: $0.name, contact: Person($0.contact)) }
        notes = details.notes.map {
            Note(id: $0.id, body: $0.body, isFavorited: $0.isFavorited, createdAt: $0.createdAt)
        }
        tasks = details.tasks.map {
            Todo(
                id: $0.id, title: $0.title, description: $0.description, completed: $0.completed,
                completedAt: $0.completedAt,
                createdAt: $0.createdAt)
        }
        activities = details.activities.map {
            Activity(
                id: $0.id, summary: $0.summary, description: $0.description, happenedAt: $0.happenedAt,
                type: $0.activityType?.name, attendees: $0.attendees.map(Person.init))
        }
        hasMoreActivities = details.hasMoreActivities
        gifts = details.gifts.map {
            Gift(
                id: $0.id, name: $0.name, status: $0.status, amount: $0.amount, url: $0.url, comment: $0.comment,
                date: $0.date)
        }
        reminders = details.reminders.map {
            Reminder(
                id: $0.id, title: $0.title, description: $0.description, initialDate: $0.initialDate,
                frequency: $0.frequencyText, frequencyType: $0.frequencyType, frequencyNumber: $0.frequencyNumber)
        }
        calls = details.calls.map {
            Call(id: $0.id, calledAt: $0.calledAt, theyCalled: $0.contactCalled, content: $0.content)
        }
        conversations = details.conversations.map {
            Conversation(
                id: $0.id, happenedAt: $0.happenedAt, medium: $0.contactFieldType?.name,
                messages: $0.messages.map {
                    Conversation.Message(id: $0.id, writtenAt: $0.writtenAt, byMe: $0.writtenByMe, content: $0.content)
                })
        }
        debts = details.debts.map {
            Debt(id: $0.id, youOwe: $0.youOwe, amount: $0.amount, reason: $0.reason, settled: $0.isSettled)
        }
        pets = details.pets.map { Pet(id: $0.id, name: $0.name, kind: $0.kind) }
        lifeEvents = details.lifeEvents.map {
            LifeEvent(id: $0.id, happenedOn: $0.happenedAt, type: $0.lifeEventType?.name, name: $0.name, note: $0.note)
        }
        fromCache = details.isFromCache
        offlineReason = details.offlineReason?.userMessage
        fetchedAt = details.fetchedAt == .distantPast ? nil : details.fetchedAt
        pendingAddressEdits = pendingEdits
    }
}

/// `sync`.
struct ContactSyncJSON: Encodable {
    struct Refusal: Encodable {
        var action: String
        var addressID: Int
        var contactID: Int
        var message: String
        var failedAt: Date

        init(_ failed: FailedAddressEdit) {
            action = failed.action.rawValue
            addressID = failed.addressID
            contactID = failed.contactID
            message = failed.message
            failedAt = failed.failedAt
        }
    }

    var contacts: Int
    var countries: Int
    var addressEditsSent: Int
    var addressEditsRefused: [Refusal]
    var pendingAddressEdits: Int
    var syncedAt: Date?
}

/// `status`, and `connect`'s answer.
struct ContactsStatusJSON: Encodable {
    /// `monica` (a Monica server connected with --monica-url) or `kith` (the signed-in Kith server).
    var source: String
    var server: String?
    /// The Monica user (`monica`) or the Kith account's email (`kith`).
    var user: String?
    var maskedToken: String?
    var cachedContacts: Int?
    var lastSync: Date?
    var pendingAddressEdits: Int?
    var refusedAddressEdits: [ContactSyncJSON.Refusal]?
}
