import Foundation

extension ContactBook {
    /// Every contact of the server as one vCard file (`MonicaClient.exportVCards`).
    public func exportVCards() async throws -> String { try await client.exportVCards() }

    /// Imports a file of vCards on the server (`MonicaClient.importVCards`), then brings the cache
    /// up to date so the new contacts are found offline too; a sync that fails then leaves the
    /// import made (the next sync catches up). Needs the server.
    public func importVCards(_ text: String) async throws -> MonicaVCardImport {
        let result = try await client.importVCards(text)
        _ = try? await sync()
        return result
    }
}
