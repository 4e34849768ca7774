import Foundation
import KithCore

/// Offline search over the cached contacts, ranked as docs/contacts-sdk.md says (exact, prefix, fuzzy,
/// phonetic; every word must match): the same `NameSearch` the server uses, so a real Monica whose
/// own search only matches substrings still finds "Jon" for "John". The words are kept in memory
/// and rebuilt only when the cache's contacts change.
final class ContactSearchIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = -1
    private var entries: [(id: Int, candidate: NameSearch.Candidate)] = []

    /// The ids of the best `limit` matches, best first (ties in Monica's order of the cache).
    func search(_ query: String, limit: Int, in cache: ContactCache) throws -> [Int] {
        guard let search = NameSearch(query) else { return [] }
        let entries = try current(cache)
        var scored: [(score: NameSearch.Score, index: Int)] = []
        for (index, entry) in entries.enumerated() {
            if let score = search.score(entry.candidate) { scored.append((score, index)) }
        }
        scored.sort { ($0.score, $0.index) < ($1.score, $1.index) }
        return scored.prefix(limit).map { entries[$0.index].id }
    }

    /// Builds the index now if the cache changed, so the next search does not pay for it.
    func prepare(_ cache: ContactCache) throws { _ = try current(cache) }

    private func current(_ cache: ContactCache) throws -> [(id: Int, candidate: NameSearch.Candidate)] {
        let latest = try cache.generation()
        if let entries = lock.withLock({ generation == latest ? self.entries : nil }) { return entries }
        let (builtGeneration, rows) = try cache.searchEntries()
        let built = rows.map { (id: $0.id, candidate: NameSearch.Candidate(searchText: $0.searchText)) }
        lock.withLock {
            self.generation = builtGeneration
            self.entries = built
        }
        return built
    }
}
