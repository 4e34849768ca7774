import KithCore

/// Times every account-owned object ends with.
extension MonicaRow {
    func stamps(_ scope: MonicaScope) -> [(String, JSONTree)] {
        [("account", ["id": .int(scope.accountID)])] + times
    }

    /// The same, with the object's contact between the account and the times, where Monica puts it.
    func stamps(_ scope: MonicaScope, contact: JSONTree?) -> [(String, JSONTree)] {
        [("account", ["id": .int(scope.accountID)]), ("contact", contact ?? .null)] + times
    }

    private var times: [(String, JSONTree)] {
        [
            ("created_at", .nullable(MonicaTimestamp.format(millis: int("created_at")))),
            ("updated_at", .nullable(MonicaTimestamp.format(millis: int("updated_at")))),
        ]
    }
}
