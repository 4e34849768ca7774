import Foundation
import KithCore

/// An Outreach page: Outreach is the header's current app, and the page loads outreach.js
/// (which follows `/v1/live` with live.js).
protocol OutreachPageModel: PageModel {}

extension OutreachPageModel {
    var section: WebSection { .outreach }
    var scripts: PageScripts { .live("outreach.js") }
}

/// The Outreach forms' `maxlength`s, from the entities' declarations.
struct OutreachLimits {
    let firstName = OutreachEntities.contact.maxLength(of: "firstName")
    let lastName = OutreachEntities.contact.maxLength(of: "lastName")
    let enterpriseName = OutreachEntities.contact.maxLength(of: "enterpriseName")
    let comments = OutreachEntities.contact.maxLength(of: "comments")
    let yearName = OutreachEntities.year.maxLength(of: "name")

    static let declared = OutreachLimits()
}
