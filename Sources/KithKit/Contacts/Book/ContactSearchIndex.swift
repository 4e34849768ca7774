import Foundation
import KithCore

/// Offline search over the cached contacts, ranked as docs/contacts-sdk.md says (exact, prefix, fuzzy,
/// phonetic; every word must match): the same `NameSearch` the server uses, so a real Monica whose
/// own search only matches substrings still finds "Jon" for "John". The words are kept in memory
/// and rebuilt only when the cache's contacts change.
final class ContactSearchIndex: @unchecked Sendable {
    private let lock = NSLock()
    private var generation = -1
    private var ids: [Int] = []
    private var candidates = NameSearch.Candidates(searchTexts: [])

    /// The ids of the best `limit` matches, best first (ties in Monica's order of the cache).
    func search(_ query: String, limit: Int, in cache: ContactCache) throws -> [Int] {
        guard let search = NameSearch(query) else { return [] }
        let (ids, candidates) = try current(cache)
        let scored = candidates.matches(search).sorted { ($0.score, $0.index) < ($1.score, $1.index) }
        return scored.prefix(limit).map { ids[$0.index] }
    }

    /// Builds the index now if the cache changed, so the next search does not pay for it.
    func prepare(_ cache: ContactCache) throws { _ = try current(cache) }

    private func current(_ cache: ContactCache) throws -> ([Int], NameSearch.Candidates) {
        let latest = try cache.generation()
        if let kept = lock.withLock({ generation == latest ? (ids, candidates) : nil }) { return kept }
        let (builtGeneration, rows) = try cache.searchEntries()
        let built = (rows.map(\.id), NameSearch.Candidates(searchTexts: rows.map(\.searchText)))
        lock.withLock {
            self.generation = builtGeneration
            (self.ids, self.candidates) = built
        }
        return built
    }
}
