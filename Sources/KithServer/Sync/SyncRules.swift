import Foundation
import KithCore

/// The one place that decides who may read and write synced records: the scopes a user can read
/// (from the `ScopeDirectory`), and per mutation whether its entity, scope, clock and the entity's
/// write rule allow it.
struct SyncRules: Sendable {
    let catalog: EntityCatalog
    var directory: any ScopeDirectory = PersonalScopeDirectory()
    /// A device clock further ahead than this could win every conflict for as long: refused.
    static let maximumClockSkewMillis: Int64 = 5 * 60 * 1000

    struct Refusal: Error, Sendable {
        let code: String
        let message: String
    }

    /// What `userID` may access, looked up once per request.
    func memberships(userID: String) async throws -> [ScopeMembership] {
        try await directory.memberships(userID: userID)
    }

    /// Scopes whose records `userID` may read.
    func readableScopes(userID: String) async throws -> [String] {
        try await memberships(userID: userID).map(\.scope)
    }

    func check(_ mutation: Mutation, memberships: [ScopeMembership], now: Int64) -> Result<EntityDeclaration, Refusal> {
        guard let declaration = catalog[mutation.entity] else {
            return .failure(Refusal(code: "unknown_entity", message: "This server has no entity \"\(mutation.entity)\"."))
        }
        guard mutation.hlc.wallMillis <= now + Self.maximumClockSkewMillis else {
            return .failure(
                Refusal(code: "clock_skew", message: "This device's clock is more than 5 minutes ahead. Set the right time and try again."))
        }
        guard let membership = memberships.first(where: { $0.scope == mutation.scope }),
            mutation.scope.hasPrefix(declaration.scope.rawValue + ":")
        else {
            return .failure(Refusal(code: "forbidden", message: "You can't write records in this scope."))
        }
        switch declaration.writeRule {
        case .anyMember:
            return .success(declaration)
        case .roles(let allowed):
            guard let role = membership.role, allowed.contains(role) else {
                return .failure(Refusal(code: "forbidden", message: "Your role can't change this record."))
            }
            return .success(declaration)
        case .server:
            return .failure(Refusal(code: "forbidden", message: "Only the server writes these records."))
        }
    }
}
