import Foundation

extension MonicaClient {
    /// The user the token belongs to; also how a token is checked.
    public func me() async throws -> MonicaUser { try await object("me") }

    /// A page of contacts in Monica's order (oldest first), with their emails and phones.
    public func contacts(page: Int = 1, limit: Int = 50) async throws -> MonicaPage<MonicaContact> {
        try await self.page("contacts", [("with", "contactfields")], page: page, limit: limit)
    }

    /// Every contact, 100 a page, with their emails and phones.
    public nonisolated func allContacts() -> MonicaPages<MonicaContact> {
        pages("contacts", [("with", "contactfields")], limit: 100)
    }

    /// The server's own search (a real Monica matches substrings; Kith's `/api` ranks like `ContactBook`).
    public func searchContacts(_ query: String, page: Int = 1, limit: Int = 50) async throws -> MonicaPage<
        MonicaContact
    > {
        try await self.page("contacts", [("query", query), ("with", "contactfields")], page: page, limit: limit)
    }

    public func contact(_ id: Int) async throws -> MonicaContact {
        try await object("contacts/\(id)", [("with", "contactfields")])
    }

    public func createContact(_ input: MonicaContactInput) async throws -> MonicaContact {
        try await object("POST", "contacts", body: input)
    }

    public func updateContact(_ id: Int, _ input: MonicaContactInput) async throws -> MonicaContact {
        try await object("PUT", "contacts/\(id)", body: input)
    }

    public func deleteContact(_ id: Int) async throws { try await delete("contacts/\(id)") }

    /// Merges contact `otherID` into contact `keptID` (Kith's `POST /api/contacts/{id}/merge`; a
    /// real Monica has no such route and answers `notFound`): the kept contact takes the other's
    /// blanks and everything on it, the other is deleted. The kept contact as it is now.
    public func mergeContacts(keeping keptID: Int, merging otherID: Int) async throws -> MonicaContact {
        let envelope: MonicaEnvelope<MonicaContact> = try await send(
            "POST", "contacts/\(keptID)/merge", [("with", "contactfields")], body: MergeBody(contactID: otherID))
        return envelope.data
    }

    private struct MergeBody: Encodable {
        let contactID: Int
        enum CodingKeys: String, CodingKey { case contactID = "contact_id" }
    }

    public func contactFields(of contactID: Int) async throws -> [MonicaContactField] {
        try await pages("contacts/\(contactID)/contactfields").allItems()
    }

    // MARK: Addresses

    public func addresses(of contactID: Int) async throws -> [MonicaAddress] {
        try await pages("contacts/\(contactID)/addresses").allItems()
    }

    public func address(_ id: Int) async throws -> MonicaAddress { try await object("addresses/\(id)") }

    public func createAddress(_ input: MonicaAddressInput) async throws -> MonicaAddress {
        try await object("POST", "addresses", body: input)
    }

    /// Replaces every field of the address (Monica resets what is not sent).
    public func updateAddress(_ id: Int, _ input: MonicaAddressInput) async throws -> MonicaAddress {
        try await object("PUT", "addresses/\(id)", body: input)
    }

    public func deleteAddress(_ id: Int) async throws { try await delete("addresses/\(id)") }

    /// Every country, as Monica 4 sends them (an object keyed by lower-case code) or as older
    /// servers and some proxies do (an array), in name order.
    public func countries() async throws -> [MonicaCountry] {
        let list: MonicaCountryList = try await get("countries")
        return list.countries.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }
}

/// `{"data": {"fr": {…}, …}}` or `{"data": [{…}, …]}`.
struct MonicaCountryList: Decodable {
    let countries: [MonicaCountry]

    enum CodingKeys: String, CodingKey { case data }

    init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        if let keyed = try? fields.decode([String: Lossy<MonicaCountry>].self, forKey: .data) {
            countries = keyed.values.compactMap(\.value)
        } else {
            countries = try fields.decode([Lossy<MonicaCountry>].self, forKey: .data).compactMap(\.value)
        }
    }
}
