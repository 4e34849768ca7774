import Foundation
import Hummingbird
import KithCore

/// `/api/addresses` and `/api/contacts/{id}/addresses`.
struct AddressesRoutes {
    static let rules = [
        FieldRules("contact_id", .required, .integer),
        FieldRules("name", .nullable, .string, .max(255)), FieldRules("street", .nullable, .string, .max(255)),
        FieldRules("city", .nullable, .string, .max(255)), FieldRules("province", .nullable, .string, .max(255)),
        FieldRules("postal_code", .nullable, .string, .max(255)), FieldRules("country", .nullable, .string, .max(3)),
        FieldRules("latitude", .nullable, .numeric, .between(-90, 90)),
        FieldRules("longitude", .nullable, .numeric, .between(-180, 180)),
        FieldRules("labels", .nullable, .array),
    ]

    let repository: AddressRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.contactOwned("addresses", repository.owned, deleteAttribute: "address id", present: Self.present) {
            call, id in try await save(call, id: id)
        }
    }

    static let present: OwnedPresenter<AddressRecord> = { address, contact, presentation in
        AddressPresenter.present(address, contact: contact(address.contactID), presentation)
    }

    /// Coordinates typed with a decimal comma ("48,8566", as much of Europe writes them) read as
    /// numbers, by the rule the Family app's place fields and the command line use (`DecimalText`).
    static func readingDecimalCommas(_ input: MonicaInput) -> MonicaInput {
        var values = input.values
        for name in ["latitude", "longitude"] {
            if case .string(let text)? = values[name], let number = DecimalText.parse(text) {
                values[name] = .double(number)
            }
        }
        return MonicaInput(values)
    }

    /// Create, or replace every field of an existing address (Monica's update resets what is not sent).
    private func save(_ call: MonicaRequest, id: Int64?) async throws -> Response {
        let valid = try MonicaValidator.validate(Self.readingDecimalCommas(try await call.input()), Self.rules)
        let country = try CountryInput.code(valid)
        let address = PostalAddress(
            label: valid.string("name"), street: valid.string("street"), city: valid.string("city"),
            province: valid.string("province"), postalCode: valid.string("postal_code"), countryCode: country,
            latitude: valid.double("latitude"), longitude: valid.double("longitude"))
        guard !address.isEmpty else {
            throw MonicaError.invalid(
                "The address is empty: give at least a name, street, city, province, postal code, country or coordinates."
            )
        }
        let saved = try await repository.save(
            account: call.accountID, id: id, ifMatch: try call.ifMatch(), contactID: valid.int("contact_id") ?? 0,
            address, now: call.now)
        return owned(saved, call, Self.present, status: id == nil ? .created : .ok)
    }
}
