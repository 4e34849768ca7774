import Foundation
import Hummingbird

/// The Contacts pages (seeds 004 and 001): shells that the page scripts fill from `/api`, which
/// they call with the session cookie like any Monica client, so every rule is the API's
/// (docs/decisions.md 29). The shells carry the CSRF token the scripts send with their writes.
struct ContactsPages {
    let renderer: WebRenderer
    let session: WebSessionMiddleware

    /// Shared helpers first: the defer attribute keeps this order.
    static let listScripts = ["contacts-kit.js", "contacts.js"]
    static let contactScripts = ["contacts-kit.js", "address-lines.js", "contact-addresses.js", "contact.js"]

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group("contacts").add(middleware: session)
        pages.get(use: list)
        pages.get("address-formats.json", use: AddressFormatsDocument.serve)
        pages.get("{id}", use: contact)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        return try renderer.page(
            "contacts", title: "Contacts", context: context,
            values: ["apiClient": true, "pageScript": Self.listScripts])
    }

    /// The contact's own id is all the shell needs; an id no contact can have is answered here.
    @Sendable func contact(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        guard let id = context.parameters.get("id").flatMap(Int64.init), id > 0 else {
            throw AppError.notFound("This contact")
        }
        return try renderer.page(
            "contact", title: "Contact", context: context,
            values: ["apiClient": true, "pageScript": Self.contactScripts, "contactID": String(id)])
    }
}
