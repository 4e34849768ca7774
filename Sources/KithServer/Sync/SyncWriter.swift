import Foundation
import KithCore

/// Applies a user's mutations the one way the server knows: permission and field checks
/// (`SyncRules`), the entity's rules across records, the change sequence, then live nudges for what
/// was committed. `/v1/sync/push` and the web pages (a device of their own) both write through it.
struct SyncWriter: Sendable {
    let repository: SyncRepository
    let rules: SyncRules
    let clock: Clock
    let notifier: any ChangeNotifier

    /// One result per mutation, in order. Each mutation commits on its own; if storage fails part
    /// way, the ones before stay committed (and are nudged) and the error is thrown. `memberships`
    /// are the user's scopes when the caller already has them.
    func write(_ mutations: [Mutation], userID: String, memberships known: [ScopeMembership]? = nil) async throws
        -> [MutationResult]
    {
        let memberships: [ScopeMembership]
        if let known { memberships = known } else { memberships = try await rules.memberships(userID: userID) }
        var results: [MutationResult] = []
        var changes: [ScopeChange] = []
        do {
            for mutation in mutations {
                let (result, change) = try await apply(mutation, userID: userID, memberships: memberships)
                results.append(result)
                if let change { changes.append(change) }
            }
        } catch {
            await notifier.committed(ScopeChange.latestPerScope(changes))
            throw error
        }
        await notifier.committed(ScopeChange.latestPerScope(changes))
        return results
    }

    /// Applies one mutation; the change it committed, if it changed the record, comes back too.
    private func apply(_ mutation: Mutation, userID: String, memberships: [ScopeMembership]) async throws
        -> (MutationResult, ScopeChange?)
    {
        let now = clock.nowMillis
        let declaration: EntityDeclaration
        switch rules.check(mutation, memberships: memberships, now: now) {
        case .failure(let refusal):
            let result = MutationResult(
                mutationId: mutation.mutationId, status: .rejected, code: refusal.code, message: refusal.message)
            return (result, nil)
        case .success(let found):
            declaration = found
        }
        let outcome = try await repository.apply(
            mutation, userID: userID, now: now, rules: rules.catalog.rules[mutation.entity] ?? []
        ) { isCreation in
            declaration.problems(in: mutation.fields, isCreation: isCreation).first
        }
        switch outcome {
        case .applied(let seq):
            let change = seq.map { ScopeChange(scope: mutation.scope, seq: $0) }
            return (MutationResult(mutationId: mutation.mutationId, status: .applied), change)
        case .duplicate:
            return (MutationResult(mutationId: mutation.mutationId, status: .duplicate), nil)
        case .rejected(let code, let message, let current):
            let result = MutationResult(
                mutationId: mutation.mutationId, status: .rejected, code: code, message: message, record: current)
            return (result, nil)
        }
    }
}
