import ArgumentParser
import Foundation
import KithCore
import KithKit

/// An address's fields, as `address add` and `address edit` take them.
struct AddressFields: ParsableArguments {
    @Option(help: "What the address is: Home, Work, or any text.") var label: String?
    @Option(help: "Street and number (may span lines).") var street: String?
    @Option(help: "City or town.") var city: String?
    @Option(help: "State, province, county or region.") var region: String?
    @Option(name: .customLong("postal-code"), help: "Postal or ZIP code.") var postalCode: String?
    @Option(help: "ISO 3166 country code, such as FR or US (see `kith contacts countries`).") var country: String?
    @Option(parsing: .unconditional, help: "Latitude in degrees (-90…90).") var latitude: TypedNumber?
    @Option(parsing: .unconditional, help: "Longitude in degrees (-180…180).") var longitude: TypedNumber?

    var postal: PostalAddress {
        PostalAddress(
            label: label, street: street, city: city, province: region,
            postalCode: postalCode, countryCode: country, latitude: latitude?.value, longitude: longitude?.value)
    }

    func validate() throws {
        if (latitude == nil) != (longitude == nil) {
            throw ValidationError("Give both --latitude and --longitude, or neither.")
        }
    }
}

extension ContactsCommand {
    /// `kith contacts address add|edit|delete|directions`.
    struct AddressCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "address", abstract: "Add, change or delete an address, or get directions to it.",
            discussion: """
                Edits made without a network are saved on this device and sent, in order, when the \
                server can be reached (by `kith contacts sync` or any command that reads from it). An \
                address added offline has a negative id until it is sent; give it after `--`, as in \
                `kith contacts address delete --yes -- -1`.
                """,
            subcommands: [Add.self, Edit.self, Delete.self, Directions.self])

        static let queuedNote = "saved on this device; will be sent when the server can be reached."

        struct Add: ConsoleCommand {
            static let configuration = CommandConfiguration(
                commandName: "add", abstract: "Add an address to a contact.")
            @OptionGroup var options: ClientOptions
            @OptionGroup var monica: MonicaOptions
            @Argument(help: "The contact's id.") var contactID: Int
            @OptionGroup var fields: AddressFields

            func run(_ console: Console) async throws {
                try await ContactsCommand.run(options, monica, console) { session in
                    let address = try await session.book.addAddress(fields.postal, to: contactID)
                    let pending = try await session.pendingAddressIDs()
                    let json = AddressJSON(address, pending: pending)
                    session.output.emit(json) {
                        let whose = address.contact.map { " to \($0.displayName)" } ?? " to contact \(contactID)"
                        let head =
                            json.pending
                            ? "Added address #\(address.id)\(whose): \(AddressCommand.queuedNote)"
                            : "Added address #\(address.id)\(whose)."
                        return head + "\n" + ContactsText.address(address, pending: pending, indent: "  ")
                    }
                }
            }
        }

        struct Edit: ConsoleCommand {
            static let configuration = CommandConfiguration(
                commandName: "edit", abstract: "Replace an address: every field, as Monica does.",
                discussion: "Fields not given are cleared (Monica's update replaces the whole address): give them all.")
            @OptionGroup var options: ClientOptions
            @OptionGroup var monica: MonicaOptions
            @Argument(help: "The address's id (as `kith contacts addresses CONTACT_ID` shows it).") var addressID: Int
            @OptionGroup var fields: AddressFields

            func run(_ console: Console) async throws {
                try await ContactsCommand.run(options, monica, console) { session in
                    let address = try await session.withCachedAddress(addressID) {
                        try await session.book.updateAddress(addressID, to: fields.postal)
                    }
                    let pending = try await session.pendingAddressIDs()
                    let json = AddressJSON(address, pending: pending)
                    session.output.emit(json) {
                        let head =
                            json.pending
                            ? "Changed address #\(address.id): \(AddressCommand.queuedNote)"
                            : "Changed address #\(address.id)."
                        return head + "\n" + ContactsText.address(address, pending: pending, indent: "  ")
                    }
                }
            }
        }

        struct Delete: ConsoleCommand {
            static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete an address.")
            @OptionGroup var options: ClientOptions
            @OptionGroup var monica: MonicaOptions
            @Argument(help: "The address's id.") var addressID: Int
            @Flag(help: "Confirm: the address is deleted.") var yes = false

            func validate() throws {
                guard yes else { throw ValidationError("Deleting an address cannot be undone: add --yes to confirm.") }
            }

            func run(_ console: Console) async throws {
                try await ContactsCommand.run(options, monica, console) { session in
                    try await session.withCachedAddress(addressID) {
                        try await session.book.deleteAddress(addressID)
                    }
                    let pending = try await session.book.pendingAddressEdits().contains {
                        $0.addressID == addressID && $0.action == .delete
                    }
                    session.output.emit(AddressDeletionJSON(deleted: addressID, pending: pending)) {
                        pending
                            ? "Deleted address #\(addressID): \(AddressCommand.queuedNote)"
                            : "Deleted address #\(addressID)."
                    }
                }
            }
        }

        struct Directions: ConsoleCommand {
            static let configuration = CommandConfiguration(
                commandName: "directions",
                abstract: "Links to directions to an address, in Apple Maps and OpenStreetMap.",
                discussion: """
                    Uses the address's coordinates: typed, or found by a Kith server from the address itself; \
                    without them, asks a Nominatim geocoder (--geocoder or KITH_GEOCODER_URL, such as \
                    https://nominatim.openstreetmap.org) where it is.
                    """)
            @OptionGroup var options: ClientOptions
            @OptionGroup var monica: MonicaOptions
            @Argument(help: "The address's id.") var addressID: Int
            @Option(help: "A Nominatim server's URL, to locate an address without coordinates.") var geocoder: String?

            static let geocoderVariable = "KITH_GEOCODER_URL"

            func geocoderURL(_ environment: [String: String]) throws -> URL? {
                // `off`, as the server reads the same variable: no geocoder.
                guard let text = geocoder ?? environment[Self.geocoderVariable], !text.isEmpty,
                    !["off", "none"].contains(text.lowercased())
                else {
                    return nil
                }
                guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme),
                    url.host != nil
                else {
                    throw ValidationError(
                        "The geocoder must be a URL like https://nominatim.openstreetmap.org, got \"\(text)\".")
                }
                return url
            }

            func run(_ console: Console) async throws {
                let geocoderAddress = try geocoderURL(console.environment)
                try await ContactsCommand.run(options, monica, console) { session in
                    var address = try await session.address(addressID)
                    // A copy cached before the server located the address: the server's own first,
                    // before any geocoder of this machine (offline, the cached copy stands).
                    if address.postal.coordinates == nil, !address.isPending,
                        let fresh = try? await session.client.address(addressID)
                    {
                        address = fresh
                    }
                    let name = address.contact?.displayName ?? "Contact"
                    let geocoder = try geocoderAddress.map {
                        NominatimGeocoder(
                            baseURL: $0, userAgent: "kith-contacts/1 (Kith command line)",
                            transport: session.profile.transport())
                    }
                    let directions = try await KithKit.Directions.to(address, contactName: name, geocoder: geocoder)
                    let pending = try await session.pendingAddressIDs()
                    let json = DirectionsJSON(
                        address: AddressJSON(address, pending: pending), label: directions.label,
                        latitude: directions.destination.latitude, longitude: directions.destination.longitude,
                        geocoded: directions.geocoded, locatedByServer: directions.locatedByServer,
                        appleMaps: directions.appleMaps.absoluteString,
                        openStreetMap: directions.openStreetMap.absoluteString)
                    session.output.emit(json) {
                        var lines = ["Directions to \(name): \(address.postal.lines.joined(separator: ", "))"]
                        if directions.locatedByServer {
                            lines.append(
                                "Located from the address by the server at \(directions.destination.latitude), \(directions.destination.longitude)."
                            )
                        } else if directions.geocoded {
                            lines.append(
                                "Located by the geocoder at \(directions.destination.latitude), \(directions.destination.longitude)."
                            )
                        }
                        lines.append("Apple Maps:    \(json.appleMaps)")
                        lines.append("OpenStreetMap: \(json.openStreetMap)")
                        return lines.joined(separator: "\n")
                    }
                }
            }
        }
    }
}
