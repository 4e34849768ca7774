import Foundation
import KithCore

/// The one place that decides who may read and write synced records: scopes a user can read, and
/// per mutation whether its entity, scope, clock and the entity's write rule allow it.
struct SyncRules: Sendable {
    let catalog: EntityCatalog
    /// A device clock further ahead than this could win every conflict for as long: refused.
    static let maximumClockSkewMillis: Int64 = 5 * 60 * 1000

    struct Refusal: Error, Sendable {
        let code: String
        let message: String
    }

    /// Scopes whose records `userID` may read. Families join this list with the Family app.
    func readableScopes(userID: String) -> [String] { ["user:\(userID)"] }

    func check(_ mutation: Mutation, userID: String, now: Int64) -> Result<EntityDeclaration, Refusal> {
        guard let declaration = catalog[mutation.entity] else {
            return .failure(Refusal(code: "unknown_entity", message: "This server has no entity \"\(mutation.entity)\"."))
        }
        guard mutation.hlc.wallMillis <= now + Self.maximumClockSkewMillis else {
            return .failure(
                Refusal(code: "clock_skew", message: "This device's clock is more than 5 minutes ahead. Set the right time and try again."))
        }
        guard readableScopes(userID: userID).contains(mutation.scope),
            mutation.scope.hasPrefix(declaration.scope.rawValue + ":")
        else {
            return .failure(Refusal(code: "forbidden", message: "You can't write records in this scope."))
        }
        switch declaration.writeRule {
        case .anyMember:
            return .success(declaration)
        case .roles:
            // Roles exist only in family scopes, which no user can write yet.
            return .failure(Refusal(code: "forbidden", message: "Your role can't change this record."))
        }
    }
}
