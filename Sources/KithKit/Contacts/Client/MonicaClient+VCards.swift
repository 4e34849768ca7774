import Foundation

extension MonicaClient {
    /// Every contact as one vCard 3.0 file (Kith's `GET /api/vcards`; a real Monica answers
    /// `notFound`), as Google Contacts and iPhones import it.
    public func exportVCards() async throws -> String {
        let data = try await exchange("GET", "vcards", [], payload: nil, contentType: nil)
        return String(decoding: data, as: UTF8.self)
    }

    /// Makes contacts of a file of vCards (a Google Contacts or iPhone export; Kith's
    /// `POST /api/vcards`): every card, or none, with the contacts already there that the new ones
    /// look like. A card the server cannot read or refuses is `rejected`, naming it ("Card 3
    /// (line 41): …").
    public func importVCards(_ text: String) async throws -> MonicaVCardImport {
        let data = try await exchange(
            "POST", "vcards", [], payload: Data(text.utf8), contentType: "text/vcard; charset=utf-8")
        do {
            return try JSONDecoder().decode(MonicaEnvelope<MonicaVCardImport>.self, from: data).data
        } catch {
            throw MonicaClientError.invalidResponse("POST vcards: \(Self.describe(error))")
        }
    }
}

/// What an import made: how many contacts, which, and which of them look like people already there.
public struct MonicaVCardImport: Decodable, Sendable, Equatable {
    public let imported: Int
    public let contacts: [Contact]
    public let possibleDuplicates: [PossibleDuplicate]

    public struct Contact: Decodable, Sendable, Equatable {
        public let id: Int
        public let completeName: String

        enum CodingKeys: String, CodingKey { case id, completeName = "complete_name" }
    }

    /// A new contact, the existing one it looks like, and why ("the same name", "the same email",
    /// "the same phone number"): a pair to offer for merging.
    public struct PossibleDuplicate: Decodable, Sendable, Equatable {
        public let contact: Contact
        public let existing: Contact
        public let reason: String
    }

    enum CodingKeys: String, CodingKey { case imported, contacts, possibleDuplicates = "possible_duplicates" }
}
