import Foundation

/// A debt's fields as a write gives them (a write gives them all; an update may name another
/// contact, and the debt moves to it, as in Monica).
struct DebtInput: Sendable {
    let contactID: Int64
    let inDebt: String
    let status: String
    let amount: Double
    let reason: String?
}

struct DebtRepository: MonicaRepository {
    let database: KithDatabase
    let ids: IdentifierSource

    var owned: ContactOwnedRepository<DebtRecord> { ContactOwnedRepository(database: database, ids: ids) }

    /// Creates a debt (nil `id`) or changes debt `id` (if it is still a version `ifMatch` names);
    /// its contact must be the account's (else 404: Monica looks the contact up in the account,
    /// with no `exists` rule).
    func save(account: Int64, id: Int64?, ifMatch: IfMatch?, _ input: DebtInput, now: Int64) async throws
        -> WithContacts<DebtRecord>
    {
        try await owned.save(
            account: account, id: id, ifMatch: ifMatch, now: now, contact: input.contactID,
            [
                "in_debt": .text(input.inDebt), "status": .text(input.status), "amount": .double(input.amount),
                "reason": .text(input.reason),
            ])
    }
}
