import KithCore

/// An address as Monica answers it; the country as Monica's country object.
enum AddressPresenter {
    static func present(_ record: AddressRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        var object = JSONObject([
            ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "address"), ("name", .nullable(record.name)),
            ("street", .nullable(record.street)), ("city", .nullable(record.city)),
            ("province", .nullable(record.province)), ("postal_code", .nullable(record.postalCode)),
            ("latitude", .nullable(record.latitude)), ("longitude", .nullable(record.longitude)),
            ("country", record.country.map(CountryPresenter.present) ?? .null),
            ("url", .string(presentation.url("addresses/\(record.id)"))),
        ])
        for (key, value) in presentation.stamps(record, contact: contact) { object[key] = value }
        return .object(object)
    }
}
