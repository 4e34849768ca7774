import Crypto
import Foundation
import HTTPTypes

/// The name a browser keeps one person's pages and waiting changes under, offline: every page of a
/// signed-in person carries it (the `Kith-Account` header, which the service worker reads, and a
/// `kith-account` meta tag, which the page's scripts read), so pages cached for one account are never
/// shown to another signing in on the same browser. A digest of the account's id: it names the
/// account without saying who it is.
enum OfflineAccount {
    static let header = HTTPField.Name("Kith-Account")!

    static func mark(of userID: UUID) -> String {
        SHA256.hash(data: Data("kith-offline-account:\(userID.uuidString.lowercased())".utf8))
            .prefix(12).map { String(format: "%02x", $0) }.joined()
    }
}
