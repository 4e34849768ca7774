import Foundation
import KithCore

/// A person's page (outreach-person.mustache): the whole record, comments in full, and the form
/// that edits it (what was typed, and each refused field's reason, after a refusal).
struct OutreachPersonModel: OutreachPageModel {
    static let template = "outreach-person"

    let id: String
    let yearId: String
    let fullName: String
    let enterpriseName: String
    let delivered: Bool
    let deliveredAt: String?
    let deliveredAtText: String?
    /// Nil when there are none ("No comments.").
    let comments: String?
    var form: OutreachPersonForm
    /// The person as the page loaded them: sent back with the form (`seen.…`), so a save writes
    /// only what the person changed (docs/sync.md, "A write says what it saw").
    var seen: OutreachPersonForm
    var errors: OutreachPersonErrors?
    let limits = OutreachLimits.declared

    init(_ person: OutreachContact, zone: TimeZone?) {
        id = person.id.lowercased
        yearId = person.yearId.lowercased
        fullName = person.fullName
        enterpriseName = person.enterpriseName
        delivered = person.delivered
        deliveredAt = person.deliveredAt.map(WireCoding.formatTimestamp)
        deliveredAtText = person.deliveredAt.map { WebTime.text($0, in: zone) }
        comments = person.comments.isEmpty ? nil : person.comments
        form = OutreachPersonForm(person)
        seen = form
    }
}
