import KithCore

/// A place as Monica answers it (no uuid, no url: Monica's place has neither), the country as
/// Monica's country object.
enum PlacePresenter {
    static func present(_ record: PlaceRecord, _ presentation: MonicaPresentation) -> JSONTree {
        .object(
            JSONObject(
                [
                    ("id", .int(record.id)), ("object", "place"), ("street", .nullable(record.street)),
                    ("city", .nullable(record.city)), ("province", .nullable(record.province)),
                    ("postal_code", .nullable(record.postalCode)), ("latitude", .nullable(record.latitude)),
                    ("longitude", .nullable(record.longitude)),
                    ("country", record.country.map(CountryPresenter.present) ?? .null),
                ] + presentation.stamps(record)))
    }
}
