import Foundation
import KithCore

/// The one place that decides who may read and write synced records: the scopes a user can read
/// (from the `ScopeDirectory`), and per mutation whether its entity, scope, clock and the entity's
/// write rule allow it.
struct SyncRules: Sendable {
    let catalog: EntityCatalog
    var directory: any ScopeDirectory = PersonalScopeDirectory()

    struct Refusal: Error, Sendable {
        let code: String
        let message: String
    }

    /// What `userID` may access, looked up once per request.
    func memberships(userID: String) async throws -> [ScopeMembership] {
        try await directory.memberships(userID: userID)
    }

    /// What an authenticated user may access, from what authentication found where it can.
    func memberships(of user: AuthenticatedUser) async throws -> [ScopeMembership] {
        try await directory.memberships(of: user)
    }

    /// Scopes whose records `userID` may read.
    func readableScopes(userID: String) async throws -> [String] {
        try await memberships(userID: userID).map(\.scope)
    }

    func check(_ mutation: Mutation, memberships: [ScopeMembership], now: Int64) -> Result<EntityDeclaration, Refusal> {
        guard let declaration = catalog[mutation.entity] else {
            return .failure(
                Refusal(
                    code: ErrorCode.unknownEntity.rawValue, message: "This server has no entity \"\(mutation.entity)\"."
                ))
        }
        guard mutation.hlc.isWithinLimits else {
            return .failure(
                Refusal(
                    code: ErrorCode.validationFailed.rawValue,
                    message: "A stamp's node is at most \(SyncLimits.maximumNodeLength) characters."))
        }
        // Not the person's to fix: the answer carries the server's time, and the device re-stamps
        // its queued changes by it and sends them again (docs/sync.md, "A device's clock").
        guard mutation.hlc.wallMillis <= now + SyncLimits.maximumClockSkewMillis else {
            return .failure(
                Refusal(
                    code: MutationResult.clockSkew,
                    message: "This change was stamped more than 5 minutes ahead of the server's clock."))
        }
        guard let membership = memberships.first(where: { $0.scope == mutation.scope }),
            mutation.scope.hasPrefix(declaration.scope.rawValue + ":")
        else {
            return .failure(
                Refusal(code: ErrorCode.forbidden.rawValue, message: "You can't write records in this scope."))
        }
        switch declaration.writeRule {
        case .anyMember:
            return .success(declaration)
        case .roles(let allowed):
            guard let role = membership.role, allowed.contains(role) else {
                return .failure(
                    Refusal(code: ErrorCode.forbidden.rawValue, message: "Your role can't change this record."))
            }
            return .success(declaration)
        case .server:
            return .failure(
                Refusal(code: ErrorCode.forbidden.rawValue, message: "Only the server writes these records."))
        }
    }
}
