import Foundation
import KithCore

/// A part of the server that writes a user's synced records as one more device of theirs (the web
/// pages' services): through `SyncWriter`, stamped by the process's `WebClock`, so every field
/// limit, rule and cascade applies exactly as to a phone's push, and the user's devices are nudged.
protocol WritesAsADevice {
    var repository: SyncRepository { get }
    var writer: SyncWriter { get }
    var stamps: WebClock { get }
    var ids: IdentifierSource { get }
}

extension WritesAsADevice {
    static func scope(of user: AuthenticatedUser) -> String { "user:" + user.id.lowercased }

    /// The live record `id` of `entity` in the user's scope; 404 otherwise (another user's too).
    func existing(_ entity: EntityDeclaration, _ id: UUID, for user: AuthenticatedUser, what: String) async throws
        -> SyncRecord
    {
        guard let record = try await repository.record(id), record.entity == entity.name,
            record.scope == Self.scope(of: user), !record.isDeleted
        else { throw AppError.notFound(what) }
        return record
    }

    /// An upsert stamped after everything in `seen`, so it wins over what the person looked at.
    func upsert(
        _ entity: EntityDeclaration, _ id: UUID, _ fields: [String: JSONTree], after seen: [SyncRecord] = [],
        user: AuthenticatedUser
    ) -> Mutation {
        Mutation(
            mutationId: ids.uuid(), entity: entity.name, id: id, scope: Self.scope(of: user), op: .upsert, fields: fields,
            hlc: stamps.stamp(after: seen))
    }

    func delete(_ entity: EntityDeclaration, _ id: UUID, after seen: [SyncRecord], user: AuthenticatedUser) -> Mutation {
        Mutation(
            mutationId: ids.uuid(), entity: entity.name, id: id, scope: Self.scope(of: user), op: .delete,
            hlc: stamps.stamp(after: seen))
    }

    /// Writes the mutations; the first refusal becomes the error a person sees, with its field.
    func write(_ mutations: [Mutation], user: AuthenticatedUser) async throws {
        guard !mutations.isEmpty else { return }
        let results = try await writer.write(mutations, userID: user.id.lowercased)
        if let refused = results.first(where: { $0.status == .rejected }) {
            throw AppError.validation(
                APIErrorDetail(
                    code: refused.code ?? "rejected", message: refused.message ?? "The change was refused.", field: refused.field))
        }
    }
}
