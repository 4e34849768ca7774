import Foundation

/// A page of the contact list, from the server or, offline, from the cache.
public struct ContactListPage: Sendable, Equatable {
    public var contacts: [MonicaContact]
    public var page: Int
    public var lastPage: Int
    public var total: Int
    /// Why the page comes from the cache (offline, timeout, Monica down), or nil when fresh.
    public var offlineReason: MonicaClientError?

    public var hasMore: Bool { page < lastPage }
    public var isFromCache: Bool { offlineReason != nil }
}

/// Everything a contact's page shows.
public struct ContactDetails: Sendable, Equatable {
    public var contact: MonicaContact
    public var addresses: [MonicaAddress]
    /// Both directions: "Ada is the mother of Byron" shows on Ada's page and on Byron's.
    public var relationships: [MonicaRelationship]
    public var notes: [MonicaNote]
    /// Open before done.
    public var tasks: [MonicaTask]
    /// Newest first: the first page; `moreActivities` fetches the next ones.
    public var activities: [MonicaActivity]
    public var hasMoreActivities: Bool
    public var gifts: [MonicaGift]
    public var reminders: [MonicaReminder]
    /// Newest first, as are life events and conversations.
    public var calls: [MonicaCall] = []
    /// Open ones first.
    public var debts: [MonicaDebt] = []
    public var pets: [MonicaPet] = []
    public var lifeEvents: [MonicaLifeEvent] = []
    public var conversations: [MonicaConversation] = []
    /// When this was fetched from the server.
    public var fetchedAt: Date
    /// Why these details come from the cache, or nil when fresh.
    public var offlineReason: MonicaClientError?

    public var isFromCache: Bool { offlineReason != nil }

    /// The other contact of each relationship, seen from this contact, with the relationship's name.
    public var related: [(name: String, contact: MonicaContactSummary)] {
        relationships.map { relationship in
            if relationship.ofContact.id == contact.id {
                return (relationship.type?.name ?? "", relationship.contactIs)
            }
            return (relationship.type?.reverseName ?? relationship.type?.name ?? "", relationship.ofContact)
        }
    }
}

/// What `sync()` did.
public struct ContactSyncSummary: Sendable, Equatable {
    public var contacts: Int
    public var countries: Int
    public var addressEditsSent: Int
    public var addressEditsRefused: [FailedAddressEdit]
}

/// What sending the queued address edits did: how many went through, which the server refused,
/// and, if it stopped early, why (the rest stay queued for the next try).
public struct AddressReplay: Sendable, Equatable {
    public var sent = 0
    public var refused: [FailedAddressEdit] = []
    public var remaining = 0
    public var stoppedBy: MonicaClientError?
}
