import Foundation

/// A kind of record a Monica contact owns and a person writes (notes, tasks, gifts, reminders):
/// the same four calls for each, `client.notes.list(of: contact)`, `.create`, `.update`, `.delete`.
public struct MonicaContactResource<Item: LenientDecodable & Sendable, Input: Encodable & Sendable>: Sendable {
    let client: MonicaClient
    /// The resource's path under `/api` (`notes`), and under a contact's (`contacts/7/notes`).
    let path: String

    /// A page of the contact's records, in Monica's order.
    public func list(of contactID: Int, page: Int = 1, limit: Int = 100) async throws -> MonicaPage<Item> {
        try await client.page("contacts/\(contactID)/\(path)", page: page, limit: limit)
    }

    public func create(_ input: Input) async throws -> Item {
        try await client.object("POST", path, body: input)
    }

    /// Replaces record `id` (Monica's update takes every field).
    public func update(_ id: Int, _ input: Input) async throws -> Item {
        try await client.object("PUT", "\(path)/\(id)", body: input)
    }

    public func delete(_ id: Int) async throws { try await client.delete("\(path)/\(id)") }
}
