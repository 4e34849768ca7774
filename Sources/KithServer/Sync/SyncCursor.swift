import Foundation
import KithCore

/// Where a device's pull stands, per scope: the last sequence value it has seen of each scope it
/// could read. A scope the user gains later (joining a family) has no position yet, so the next pull
/// starts that scope from the beginning and its existing records arrive (docs/sync.md).
///
/// Opaque to clients: base64url of `<scope>=<seq>;…`, sorted by scope.
struct SyncCursor: Equatable {
    private(set) var positions: [String: Int64] = [:]

    init(positions: [String: Int64] = [:]) {
        self.positions = positions
    }

    init?(text: String) {
        guard let bytes = Base64URL.decode(text), let plain = String(bytes: bytes, encoding: .utf8) else { return nil }
        for part in plain.split(separator: ";", omittingEmptySubsequences: false) where !plain.isEmpty {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2, !pieces[0].isEmpty, let seq = Int64(pieces[1]), seq >= 0 else { return nil }
            positions[String(pieces[0])] = seq
        }
    }

    /// The position of each of `scopes`; a scope not seen before starts at 0.
    func positions(for scopes: [String]) -> [String: Int64] {
        Dictionary(scopes.map { ($0, positions[$0] ?? 0) }, uniquingKeysWith: { first, _ in first })
    }

    /// After a page of `changes`: each scope has been seen up to its last change in the page (or
    /// stays where it was). Sequence values count per scope, so a page says nothing about the
    /// scopes it holds no change of. Scopes the user can no longer read drop out.
    func advanced(for scopes: [String], through changes: [(scope: String, seq: Int64)]) -> SyncCursor {
        var advanced = positions(for: scopes)
        for change in changes where (advanced[change.scope] ?? .max) < change.seq {
            advanced[change.scope] = change.seq
        }
        return SyncCursor(positions: advanced)
    }

    var text: String {
        let plain = positions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
        return Base64URL.encode(Array(plain.utf8))
    }
}
