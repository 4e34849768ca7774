import Foundation

/// A contact's calls, debts, pets, conversations and life events. A server that does not serve
/// one of these lists (a Monica-compatible server that stops at contacts and notes) has none of
/// them: the list is empty rather than the contact missing.
extension MonicaClient {
    /// Every call with the contact.
    public func calls(of contactID: Int) async throws -> [MonicaCall] {
        try await listIfServed("contacts/\(contactID)/calls")
    }

    public func debts(of contactID: Int) async throws -> [MonicaDebt] {
        try await listIfServed("contacts/\(contactID)/debts")
    }

    public func pets(of contactID: Int) async throws -> [MonicaPet] {
        try await listIfServed("contacts/\(contactID)/pets")
    }

    public func conversations(of contactID: Int) async throws -> [MonicaConversation] {
        try await listIfServed("contacts/\(contactID)/conversations")
    }

    /// The contact's life events. Kith lists a contact's; a Monica server lists only the
    /// account's, so there they are read all and picked out.
    public func lifeEvents(of contactID: Int) async throws -> [MonicaLifeEvent] {
        do {
            return try await pages("contacts/\(contactID)/lifeevents").allItems()
        } catch MonicaClientError.notFound {
            let all: [MonicaLifeEvent] = try await listIfServed("lifeevents")
            return all.filter { $0.contact?.id == contactID }
        }
    }

    private func listIfServed<Item: LenientDecodable>(_ path: String) async throws -> [Item] {
        do {
            return try await pages(path).allItems()
        } catch MonicaClientError.notFound {
            return []
        }
    }
}
