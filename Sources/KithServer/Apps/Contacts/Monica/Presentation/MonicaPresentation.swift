import KithCore

/// What presenters need besides records: where the server is reached (Monica's answers carry
/// absolute URLs) and whose account it is. Presenters see no request and no storage.
struct MonicaPresentation: Sendable {
    /// `https://host`, without a trailing slash.
    let baseURL: String
    let accountID: Int64
    let meContactID: Int64?
    /// The account's currency, before gifts' values.
    let currency: MonicaCurrency

    func url(_ path: String) -> String { "\(baseURL)/api/\(path)" }

    /// `account`, then the times, as every account-owned object ends.
    func stamps(_ record: some MonicaRecord) -> [(String, JSONTree)] {
        [("account", ["id": .int(accountID)])] + times(record)
    }

    /// The same, with the object's contact between the account and the times, where Monica puts it.
    func stamps(_ record: some MonicaRecord, contact: JSONTree?) -> [(String, JSONTree)] {
        [("account", ["id": .int(accountID)]), ("contact", contact ?? .null)] + times(record)
    }

    private func times(_ record: some MonicaRecord) -> [(String, JSONTree)] {
        [
            ("created_at", .nullable(MonicaTimestamp.format(millis: record.createdAt))),
            ("updated_at", .nullable(MonicaTimestamp.format(millis: record.updatedAt))),
        ]
    }
}
