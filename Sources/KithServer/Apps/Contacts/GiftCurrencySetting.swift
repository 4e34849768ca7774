import KithCore

/// The currency an account writes its gifts' values in, chosen on the account page: what `/api`
/// then shows in `/api/me` and every gift's `amount_with_currency` (docs/contacts-web.md).
struct GiftCurrencySetting: Sendable {
    let accounts: MonicaAccountRepository
    let clock: Clock

    func current(of user: AuthenticatedUser) async throws -> Currency {
        MonicaCurrency(code: try await accounts.find(userID: user.id.lowercased)?.currency).currency
    }

    /// Chooses the currency with `code` for `user`; one not on the list is refused and nothing changes.
    func choose(_ code: String, for user: AuthenticatedUser) async throws -> Currency {
        try await choose(code, for: user.id.lowercased)
    }

    /// The same for the user with id `userID`.
    @discardableResult
    func choose(_ code: String, for userID: String) async throws -> Currency {
        guard let currency = Currencies.named(code) else {
            throw AppError(
                .unprocessableContent, .validationFailed, "Choose a currency from the list.", field: "currency")
        }
        try await accounts.setCurrency(userID: userID, currency, now: clock.nowMillis)
        return currency
    }
}
