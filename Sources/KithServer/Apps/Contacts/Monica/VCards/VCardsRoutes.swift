import Foundation
import Hummingbird
import KithCore
import NIOCore

/// Kith's `/api/vcards`: every contact as one vCard file (`GET`), and a file of vCards made
/// contacts (`POST`, the body as a Google Contacts or iPhone export writes it), each card meaning
/// what it means over CardDAV (`ContactCardMapping`, `ContactCardChange`).
struct VCardsRoutes {
    let repository: ContactRepository

    func addRoutes(to routes: MonicaRoutes) {
        routes.get("vcards") { call in try await export(call) }
        routes.post("vcards") { call in try await importFile(call) }
    }

    /// vCard 3.0, which Google Contacts and iPhones read, one card per real contact in the order
    /// they were added; each card's UID is the contact's uuid.
    private func export(_ call: MonicaRequest) async throws -> Response {
        let records = try await repository.reading(call.accountID) { storage in
            try await ContactCardLoader(storage: storage).records()
        }
        let text = records.values.sorted { $0.contact.id < $1.contact.id }.map { record in
            var card = ContactCardMapping.card(record)
            card.uid = record.contact.uuid
            return card.write(.v3)
        }.joined()
        var headers: HTTPFields = [:]
        headers[.contentType] = "text/vcard; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"contacts.vcf\""
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Every card of the file, or none: a card that cannot be read or that `/api`'s rules refuse
    /// is named by its number and line, and nothing is imported.
    private func importFile(_ call: MonicaRequest) async throws -> Response {
        let buffer = try await call.request.body.collect(upTo: SyncLimits.largestBody)
        guard let text = String(validating: Array(buffer: buffer), as: UTF8.self) else {
            throw MonicaError.invalid("The file is not UTF-8 text: export the contacts as vCard (.vcf) and try again.")
        }
        let cards: [ContactCard]
        do {
            cards = try ContactCard.parse(text)
        } catch {
            let numbering = CardNumbering(text)
            let card = error.line.map { numbering.name(ofCard: numbering.card(holding: $0), line: $0) } ?? "The file"
            throw MonicaError.invalid("\(card): \(error.message) Nothing was imported.")
        }
        let result = try await repository.importCards(cards, from: text, account: call.accountID, now: call.now)
        func short(_ contact: ContactRecord) -> JSONTree {
            [
                "id": .int(contact.id), "first_name": .string(contact.firstName),
                "last_name": .nullable(contact.lastName),
                "complete_name": .string(
                    [contact.firstName, contact.lastName ?? ""].filter { !$0.isEmpty }.joined(separator: " ")),
            ]
        }
        return MonicaResponse.data(
            [
                "imported": .int(Int64(result.imported.count)), "contacts": .array(result.imported.map(short)),
                "possible_duplicates": .array(
                    result.duplicates.map { pair -> JSONTree in
                        ["contact": short(pair.imported), "existing": short(pair.existing), "reason": .string(pair.reason)]
                    }),
            ])
    }
}
