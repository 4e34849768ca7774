import Crypto
import Foundation

/// RFC 6578's sync token: a URI naming the collection (a digest of its key, so a token from
/// another collection is never taken for this one's) and its change number.
enum SyncToken {
    static func make(_ state: DAVCollectionState) -> String {
        "urn:kith:sync:\(collectionDigest(state.key)):\(state.lastSeq)"
    }

    /// The change number a client's token names; 0 for the empty token (a first sync). Throws
    /// `valid-sync-token` for anything else, and for a number the collection never reached (a
    /// database restored from a backup): the client then syncs from scratch.
    static func changeNumber(_ token: String, of state: DAVCollectionState) throws(DAVError) -> Int64 {
        if token.isEmpty { return 0 }
        let prefix = "urn:kith:sync:\(collectionDigest(state.key)):"
        guard token.hasPrefix(prefix), let seq = Int64(token.dropFirst(prefix.count)), seq >= 0, seq <= state.lastSeq
        else {
            throw DAVError(
                .forbidden, "This sync token is not one this collection gave; sync again from the start.",
                precondition: DAVName.validSyncToken)
        }
        return seq
    }

    /// The collection's tag for Apple's `getctag`: it moves whenever a member changes.
    static func ctag(_ state: DAVCollectionState) -> String { "\(collectionDigest(state.key))-\(state.lastSeq)" }

    private static func collectionDigest(_ key: String) -> String {
        SHA256.hash(data: Data(key.utf8)).prefix(6).map { String(format: "%02x", $0) }.joined()
    }
}
