import Foundation

/// A contact's page (contact.mustache): the contact's id for the scripts, the map tiles when the
/// server has them, and the address form's limits.
struct ContactModel: ContactsPageModel {
    static let template = "contact"
    static let scriptFiles = [
        "contacts-kit.js", "contact-editor.js", "address-lines.js", "tile-map.js", "contact-addresses.js",
        "contact-sections.js", "contact-merge.js", "contact.js",
    ]

    let contactID: String
    let mapTiles: Tiles?
    let limits = AddressLimits.declared

    init(contactID: Int64, mapTiles: MapTiles?) {
        self.contactID = String(contactID)
        self.mapTiles = mapTiles.map { Tiles(template: $0.template, attribution: $0.attribution) }
    }

    struct Tiles {
        let template: String
        let attribution: String
    }

    /// The address form's `maxlength`s, from the rules `/api/addresses` checks.
    struct AddressLimits {
        let name = AddressesRoutes.rules.maxLength(of: "name")
        let street = AddressesRoutes.rules.maxLength(of: "street")
        let city = AddressesRoutes.rules.maxLength(of: "city")
        let province = AddressesRoutes.rules.maxLength(of: "province")
        let postalCode = AddressesRoutes.rules.maxLength(of: "postal_code")

        static let declared = AddressLimits()
    }
}
