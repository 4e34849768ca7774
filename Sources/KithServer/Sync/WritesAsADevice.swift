import Foundation
import KithCore

/// A part of the server that writes synced records as one more device of the signed-in user (the
/// web pages' services): through `SyncWriter`, stamped by the process's `WebClock`, so every field
/// limit, rule and cascade applies exactly as to a phone's push, and the devices following the
/// scope are nudged. The scope is the user's own (`user:<id>`) or one they share, such as their
/// family's (`family:<id>`); `SyncWriter` checks they may write it, `RuleContext.actor` is the user.
protocol WritesAsADevice {
    var repository: SyncRepository { get }
    var writer: SyncWriter { get }
    var stamps: WebClock { get }
    var ids: IdentifierSource { get }
}

extension WritesAsADevice {
    static func scope(of user: AuthenticatedUser) -> String { "user:" + user.id.lowercased }

    /// The live record `id` of `entity` in `scope`; 404 otherwise (another user's or family's too).
    func existing(_ entity: EntityDeclaration, _ id: UUID, in scope: String, what: String) async throws -> SyncRecord {
        guard let record = try await repository.record(id, in: scope), record.entity == entity.name,
            !record.isDeleted
        else { throw AppError.notFound(what) }
        return record
    }

    /// The live record `id` of `entity` in the user's own scope; 404 otherwise.
    func existing(_ entity: EntityDeclaration, _ id: UUID, for user: AuthenticatedUser, what: String) async throws
        -> SyncRecord
    {
        try await existing(entity, id, in: Self.scope(of: user), what: what)
    }

    /// An upsert in `scope` stamped after everything in `seen`, so it wins over what the person looked at.
    func upsert(
        _ entity: EntityDeclaration, _ id: UUID, _ fields: [String: JSONTree], after seen: [SyncRecord] = [],
        in scope: String
    ) -> Mutation {
        Mutation(
            mutationId: ids.uuid(), entity: entity.name, id: id, scope: scope, op: .upsert, fields: fields,
            hlc: stamps.stamp(after: seen))
    }

    /// An upsert in the user's own scope.
    func upsert(
        _ entity: EntityDeclaration, _ id: UUID, _ fields: [String: JSONTree], after seen: [SyncRecord] = [],
        user: AuthenticatedUser
    ) -> Mutation {
        upsert(entity, id, fields, after: seen, in: Self.scope(of: user))
    }

    func delete(_ entity: EntityDeclaration, _ id: UUID, after seen: [SyncRecord], in scope: String) -> Mutation {
        Mutation(
            mutationId: ids.uuid(), entity: entity.name, id: id, scope: scope, op: .delete,
            hlc: stamps.stamp(after: seen))
    }

    /// A deletion in the user's own scope.
    func delete(_ entity: EntityDeclaration, _ id: UUID, after seen: [SyncRecord], user: AuthenticatedUser) -> Mutation
    {
        delete(entity, id, after: seen, in: Self.scope(of: user))
    }

    /// Writes the mutations as `user`; the first refusal becomes the error a person sees, with its field.
    func write(_ mutations: [Mutation], user: AuthenticatedUser) async throws {
        guard !mutations.isEmpty else { return }
        let results = try await writer.write(mutations, userID: user.id.lowercased)
        if let refused = results.first(where: { $0.status == .rejected }) {
            throw AppError.validation(
                APIErrorDetail(
                    code: refused.code ?? "rejected", message: refused.message ?? "The change was refused.",
                    field: refused.field))
        }
    }
}
