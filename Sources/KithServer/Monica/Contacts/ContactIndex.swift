import Foundation
import KithCore
import Synchronization

/// Each account's real (not partial) contacts as search and the list need them, kept in memory
/// between requests: reading 100,000 rows costs far more than scoring them, and a list page with
/// its total would otherwise count and skip through them all (issue 18). An account's entry is
/// valid while the account's `contacts_version` (bumped in the same transaction as every contact
/// change) is the one it was read at, so servers sharing a database never serve a stale answer.
final class ContactIndex: Sendable {
    struct Entry: Sendable {
        let version: Int64
        let ids: [Int64]
        let createdAt: [Int64]
        let updatedAt: [Int64]
        let candidates: [NameSearch.Candidate]
        /// Positions of the active contacts by (created_at, id) and by (updated_at, id), ascending:
        /// the list's two orders, sorted once per version.
        let activeByCreated: [Int32]
        let activeByUpdated: [Int32]
        var lastUsed: UInt64
    }

    /// What the index reads of one contact.
    struct Row: Sendable {
        let id: Int64
        let searchText: String
        let createdAt: Int64
        let updatedAt: Int64
        let isActive: Bool
    }

    private let entries = Mutex<(byAccount: [Int64: Entry], clock: UInt64)>(([:], 0))
    /// Accounts kept at once; a 100,000-contact account takes about 15 MB.
    let capacity: Int

    init(capacity: Int = 32) { self.capacity = capacity }

    /// The ids of the account's real contacts matching `search`, best first, then in the page's
    /// order. Scoring runs outside the database's lock: on SQLite it would hold up every request.
    /// `load` reads the account's rows when the index does not hold them at this version.
    func search(
        account: MonicaAccount, _ search: NameSearch, _ page: PageRequest, load: () async throws -> [Row]
    ) async throws -> [Int64] {
        let entry = try await self.entry(account, load: load)
        let order = page.sortColumn == "updated_at" ? entry.updatedAt : entry.createdAt
        var matches: [(index: Int, score: NameSearch.Score)] = []
        for index in entry.candidates.indices {
            if let score = search.score(entry.candidates[index]) { matches.append((index, score)) }
        }
        matches.sort { left, right in
            if left.score != right.score { return left.score < right.score }
            let l = (order[left.index], entry.ids[left.index])
            let r = (order[right.index], entry.ids[right.index])
            return page.descending ? l > r : l < r
        }
        return matches.map { entry.ids[$0.index] }
    }

    /// One page of the account's active real contacts (what `/api/contacts` lists) in the page's
    /// order, ties by id, and how many there are; nil for an order the index does not keep.
    func list(account: MonicaAccount, _ page: PageRequest, load: () async throws -> [Row]) async throws
        -> (ids: [Int64], total: Int)?
    {
        guard ["created_at", "updated_at"].contains(page.sortColumn) else { return nil }
        let entry = try await self.entry(account, load: load)
        let order = page.sortColumn == "updated_at" ? entry.activeByUpdated : entry.activeByCreated
        let total = order.count
        let start = min(page.offset, total)
        let end = min(start + page.limit, total)
        let ids = (start..<end).map { rank in
            entry.ids[Int(order[page.descending ? total - 1 - rank : rank])]
        }
        return (ids, total)
    }

    private func entry(_ monica: MonicaAccount, load: () async throws -> [Row]) async throws -> Entry {
        let account = monica.id
        let version = monica.contactsVersion
        let cached = entries.withLock { state -> Entry? in
            guard var entry = state.byAccount[account], entry.version == version else { return nil }
            state.clock += 1
            entry.lastUsed = state.clock
            state.byAccount[account] = entry
            return entry
        }
        if let cached { return cached }
        let rows = try await load()
        let ids = rows.map(\.id)
        let created = rows.map(\.createdAt)
        let updated = rows.map(\.updatedAt)
        let candidates = rows.map { NameSearch.Candidate(searchText: $0.searchText) }
        let active = rows.indices.filter { rows[$0].isActive }.map(Int32.init)
        func sorted(by stamps: [Int64]) -> [Int32] {
            active.sorted { (stamps[Int($0)], ids[Int($0)]) < (stamps[Int($1)], ids[Int($1)]) }
        }
        let fresh = Entry(
            version: version, ids: ids, createdAt: created, updatedAt: updated, candidates: candidates,
            activeByCreated: sorted(by: created), activeByUpdated: sorted(by: updated), lastUsed: 0)
        entries.withLock { state in
            state.clock += 1
            var stored = fresh
            stored.lastUsed = state.clock
            state.byAccount[account] = stored
            if state.byAccount.count > capacity,
                let oldest = state.byAccount.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                state.byAccount.removeValue(forKey: oldest)
            }
        }
        return fresh
    }
}
