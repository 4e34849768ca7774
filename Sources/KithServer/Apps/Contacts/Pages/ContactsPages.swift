import Foundation
import Hummingbird

/// The Contacts pages (seeds 004 and 001): shells that the page scripts fill from `/api`, which
/// they call with the session cookie like any Monica client, so every rule is the API's
/// (docs/decisions.md 29). The shells carry the CSRF token the scripts send with their writes.
struct ContactsPages {
    let renderer: WebRenderer
    let session: WebSessionMiddleware
    /// Where people reach this server: the empty list tells them what to give a Monica app.
    let publicURL: @Sendable () -> String

    /// Shared helpers first: the defer attribute keeps this order.
    static let listScripts = ["contacts-kit.js", "contacts.js"]
    static let contactScripts = [
        "contacts-kit.js", "contact-editor.js", "address-lines.js", "tile-map.js", "contact-addresses.js",
        "contact-sections.js", "contact.js",
    ]
    static let formScripts = ["contacts-kit.js", "contact-form.js"]

    func addRoutes(to router: Router<AppRequestContext>) {
        let pages = router.group("contacts").add(middleware: session)
        pages.get(use: list)
        pages.get("address-formats.json", use: AddressFormatsDocument.serve)
        pages.get("new", use: newContact)
        pages.get("{id}", use: contact)
        pages.get("{id}/edit", use: editContact)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        let server = publicURL()
        return try renderer.page(
            "contacts", title: "Contacts", context: context,
            values: ["apiClient": true, "pageScript": Self.listScripts, "serverURL": server, "apiURL": server + "/api"],
            section: .contacts)
    }

    /// The contact's own id is all the shell needs; an id no contact can have is answered here.
    @Sendable func contact(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        let id = try Self.contactID(context)
        var values: [String: Any] = ["apiClient": true, "pageScript": Self.contactScripts, "contactID": String(id)]
        if let tiles = renderer.mapTiles {
            values["mapTiles"] = ["template": tiles.template, "attribution": tiles.attribution]
        }
        return try renderer.page("contact", title: "Contact", context: context, values: values, section: .contacts)
    }

    @Sendable func newContact(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        return try renderer.page(
            "contact-form", title: "Add a contact", context: context,
            values: ["apiClient": true, "pageScript": Self.formScripts, "heading": "Add a contact"], section: .contacts)
    }

    @Sendable func editContact(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        let id = try Self.contactID(context)
        return try renderer.page(
            "contact-form", title: "Edit contact", context: context,
            values: [
                "apiClient": true, "pageScript": Self.formScripts, "contactID": String(id), "heading": "Edit contact",
            ], section: .contacts)
    }

    private static func contactID(_ context: AppRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id").flatMap(Int64.init), id > 0 else {
            throw AppError.notFound("This contact")
        }
        return id
    }
}
