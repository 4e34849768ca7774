import KithCore

/// A country as a write gives it (an address's, a place's): an ISO 3166 code, stored upper case.
/// Monica kept whatever three characters it was sent, which no map and no country list can read.
enum CountryInput {
    static func code(_ valid: ValidInput) throws -> String? {
        guard let given = valid.string("country") else { return nil }
        guard let code = ISOCountries.code(given) else {
            throw MonicaError.invalid("The country must be an ISO 3166 country code, such as FR or US.")
        }
        return code
    }
}
