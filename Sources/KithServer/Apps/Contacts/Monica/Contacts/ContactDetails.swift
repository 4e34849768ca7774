import Foundation

/// A contact as the short form nested in other objects shows it: the row and its gender.
struct ContactSummary: Sendable {
    let record: ContactRecord
    let gender: GenderRecord?
}

/// Everything a full contact shows besides its own row, loaded for a page of contacts at once
/// (one query per kind, never one per contact) by `ContactDetailsLoader`.
struct ContactDetails: Sendable {
    let summary: ContactSummary
    var addresses: [AddressRecord] = []
    var tags: [TagRecord] = []
    /// With `with=contactfields` only: the contact's fields (and their types) and its last notes.
    var contactFields: [(field: ContactFieldRecord, type: ContactFieldTypeRecord?)]?
    var latestNotes: [NoteRecord]?
    /// Monica's `statistics`, by key.
    var counts: [String: Int64] = [:]
    /// The most recent day of an activity with this contact, as midnight UTC milliseconds.
    var lastActivity: Int64?
    /// By relationship group (love, family…): each relationship's type and the other contact.
    var relationships: [String: [(relationship: RelationshipRecord, type: RelationshipTypeRecord, other: ContactSummary)]] =
        [:]
    var firstMetThrough: ContactSummary?

    var record: ContactRecord { summary.record }
}
