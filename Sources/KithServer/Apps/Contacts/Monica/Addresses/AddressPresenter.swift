import KithCore

/// An address as Monica answers it; the country as Monica's country object. Its coordinates are the
/// typed ones, else where the geocoder found it; `coordinates_source` (Kith's) says which.
enum AddressPresenter {
    static func present(_ record: AddressRecord, contact: JSONTree?, _ presentation: MonicaPresentation) -> JSONTree {
        var object = JSONObject([
            ("id", .int(record.id)), ("uuid", .string(record.uuid)), ("object", "address"), ("name", .nullable(record.name)),
            ("street", .nullable(record.street)), ("city", .nullable(record.city)),
            ("province", .nullable(record.province)), ("postal_code", .nullable(record.postalCode)),
            ("latitude", .nullable(record.shownCoordinates?.latitude)),
            ("longitude", .nullable(record.shownCoordinates?.longitude)),
            ("coordinates_source", .nullable(record.coordinatesSource)),
            ("country", record.country.map(CountryPresenter.present) ?? .null),
            ("url", .string(presentation.url("addresses/\(record.id)"))),
        ])
        for (key, value) in presentation.stamps(record, contact: contact) { object[key] = value }
        return .object(object)
    }
}
