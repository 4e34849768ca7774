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
        return try renderer.page(ContactsListModel(serverURL: publicURL()), title: "Contacts", context: context)
    }

    /// The contact's own id is all the shell needs; an id no contact can have is answered here.
    @Sendable func contact(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        let model = ContactModel(contactID: try Self.contactID(context), mapTiles: renderer.mapTiles)
        return try renderer.page(model, title: "Contact", context: context)
    }

    @Sendable func newContact(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        return try renderer.page(ContactFormModel(editing: nil), title: "Add a contact", context: context)
    }

    @Sendable func editContact(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard context.user != nil else { return .redirect(to: "/signin", type: .found) }
        let model = ContactFormModel(editing: try Self.contactID(context))
        return try renderer.page(model, title: "Edit contact", context: context)
    }

    private static func contactID(_ context: AppRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id").flatMap(Int64.init), id > 0 else {
            throw AppError.notFound("This contact")
        }
        return id
    }
}
