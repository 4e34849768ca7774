import Foundation

/// Add or edit a contact (contact-form.mustache): a shell contact-form.js fills and sends to
/// `/api/contacts`, with the limits of the rules that check it.
struct ContactFormModel: ContactsPageModel {
    static let template = "contact-form"
    static let scriptFiles = ["contacts-kit.js", "contact-form.js"]

    let heading: String
    /// The contact edited; nil for a new one.
    let contactID: String?
    let limits = ContactFormLimits.declared

    init(editing contactID: Int64?) {
        heading = contactID == nil ? "Add a contact" : "Edit contact"
        self.contactID = contactID.map(String.init)
    }
}

/// The contact form's limits: text lengths from `ContactsRoutes`' rules, days and years from
/// `MonicaDate` (the dates `/api` takes).
struct ContactFormLimits {
    let firstName = ContactsRoutes.createRules.maxLength(of: "first_name")
    let lastName = ContactsRoutes.createRules.maxLength(of: "last_name")
    let nickname = ContactsRoutes.createRules.maxLength(of: "nickname")
    let description = ContactsRoutes.createRules.maxLength(of: "description")
    /// A day of a month: up to the longest month's last.
    let day = InputBounds(1...(1...12).map { MonicaDate.days(inMonth: $0, year: MonicaDate.years.upperBound) }.max()!)
    let year = InputBounds(MonicaDate.years)
    let age = InputBounds(0...Self.oldestAge)
    /// The first and last day a date field takes, `yyyy-MM-dd`.
    let firstDate = String(format: "%04d-01-01", MonicaDate.years.lowerBound)
    let lastDate = String(format: "%04d-12-31", MonicaDate.years.upperBound)

    /// The oldest age the form offers for a birthday "about their age". No rule of `/api` sets
    /// it (Monica takes any age back to the year 1): it is the form's own bound, here rather
    /// than written in the template.
    static let oldestAge = 150

    static let declared = ContactFormLimits()
}
