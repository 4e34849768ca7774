import Foundation
import KithCore
import Synchronization

/// Each account's real (not partial) contacts as search and the list need them, kept in memory
/// between requests: reading 100,000 rows costs far more than scoring them, and a list page with
/// its total would otherwise count and skip through them all. An account's entry is
/// valid while the account's `contacts_version` (bumped in the same transaction as every contact
/// change) is the one it was read at, so servers sharing a database never serve a stale answer.
final class ContactIndex: Sendable {
    /// What the index reads of one contact.
    struct Row: Sendable {
        let id: Int64
        let searchText: String
        let firstName: String
        let lastName: String
        let createdAt: Int64
        let updatedAt: Int64
        let isActive: Bool
    }

    private let entries = Mutex<(byAccount: [Int64: (entry: ContactIndexEntry, lastUsed: UInt64)], clock: UInt64)>(
        ([:], 0))
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
        let rank = entry.order(ContactOrder(page)).rank
        var matches = entry.candidates.matches(search)
        matches.sort { left, right in
            if left.score != right.score { return left.score < right.score }
            return page.descending ? rank[left.index] > rank[right.index] : rank[left.index] < rank[right.index]
        }
        return matches.map { entry.ids[$0.index] }
    }

    /// One page of the account's active real contacts (what `/api/contacts` lists) in the page's
    /// order, ties by id, and how many there are.
    func list(account: MonicaAccount, _ page: PageRequest, load: () async throws -> [Row]) async throws
        -> (ids: [Int64], total: Int)
    {
        let entry = try await self.entry(account, load: load)
        let active = entry.order(ContactOrder(page)).active
        let total = active.count
        let start = min(page.offset, total)
        let end = min(start + page.limit, total)
        let ids = (start..<end).map { rank in
            entry.ids[Int(active[page.descending ? total - 1 - rank : rank])]
        }
        return (ids, total)
    }

    /// `ids` (the account's contacts, found another way) in the page's order.
    func ordered(_ ids: [Int64], account: MonicaAccount, _ page: PageRequest, load: () async throws -> [Row])
        async throws -> [Int64]
    {
        let entry = try await self.entry(account, load: load)
        let rank = entry.order(ContactOrder(page)).rank
        let ranked = ids.compactMap { id in entry.position(of: id).map { (id: id, rank: rank[$0]) } }
        return ranked.sorted { page.descending ? $0.rank > $1.rank : $0.rank < $1.rank }.map(\.id)
    }

    private func entry(_ monica: MonicaAccount, load: () async throws -> [Row]) async throws -> ContactIndexEntry {
        let account = monica.id
        let version = monica.contactsVersion
        let cached = entries.withLock { state -> ContactIndexEntry? in
            guard let kept = state.byAccount[account], kept.entry.version == version else { return nil }
            state.clock += 1
            state.byAccount[account]?.lastUsed = state.clock
            return kept.entry
        }
        if let cached { return cached }
        let fresh = ContactIndexEntry(version: version, rows: try await load())
        entries.withLock { state in
            state.clock += 1
            state.byAccount[account] = (fresh, state.clock)
            if state.byAccount.count > capacity,
                let oldest = state.byAccount.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                state.byAccount.removeValue(forKey: oldest)
            }
        }
        return fresh
    }
}

/// The orders `/api/contacts` lists in: Monica's two, and Kith's name orders (docs/monica.md).
enum ContactOrder: Sendable, Hashable {
    case created, updated, firstName, lastName

    /// The page's sort column; `PageRequest` allowed only these for contacts.
    init(_ page: PageRequest) {
        switch page.sortColumn {
        case "updated_at": self = .updated
        case "first_name": self = .firstName
        case "last_name": self = .lastName
        default: self = .created
        }
    }
}

/// One account's contacts at one `contacts_version`. An order is sorted the first time a request
/// asks for it, then kept with the entry: most accounts are only ever listed by creation.
final class ContactIndexEntry: Sendable {
    /// An order over the entry's rows: each row's place in it (search breaks its ties with it), and
    /// the active rows in it (the list's pages).
    struct Order: Sendable {
        let rank: [Int32]
        let active: [Int32]
    }

    /// What the orders read of a row (its search text lives on in `candidates` only).
    private struct Keys: Sendable {
        let firstName: String
        let lastName: String
        let createdAt: Int64
        let updatedAt: Int64
        let isActive: Bool
    }

    let version: Int64
    let ids: [Int64]
    let candidates: NameSearch.Candidates
    private let rows: [Keys]
    private let orders = Mutex<[ContactOrder: Order]>([:])

    /// `rows` in ascending id order.
    init(version: Int64, rows: [ContactIndex.Row]) {
        self.version = version
        ids = rows.map(\.id)
        candidates = NameSearch.Candidates(searchTexts: rows.lazy.map(\.searchText))
        self.rows = rows.map {
            Keys(
                firstName: $0.firstName, lastName: $0.lastName, createdAt: $0.createdAt, updatedAt: $0.updatedAt,
                isActive: $0.isActive)
        }
    }

    /// Where contact `id` is in the rows (read in id order), if it is a real contact.
    func position(of id: Int64) -> Int? {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }

    func order(_ order: ContactOrder) -> Order {
        if let kept = orders.withLock({ $0[order] }) { return kept }
        let sorted = sortedPositions(order)
        var rank = [Int32](repeating: 0, count: rows.count)
        for (place, position) in sorted.enumerated() { rank[Int(position)] = Int32(place) }
        let made = Order(rank: rank, active: sorted.filter { rows[Int($0)].isActive })
        orders.withLock { $0[order] = made }
        return made
    }

    /// Every row's position, ascending by the order's key, ties by id. A name order compares
    /// names folded (case and accents) and puts contacts without that name last, as PostgreSQL
    /// puts NULLs last in an ascending order.
    private func sortedPositions(_ order: ContactOrder) -> [Int32] {
        let positions = rows.indices.map(Int32.init)
        switch order {
        case .created:
            return positions.sorted { (rows[Int($0)].createdAt, ids[Int($0)]) < (rows[Int($1)].createdAt, ids[Int($1)]) }
        case .updated:
            return positions.sorted { (rows[Int($0)].updatedAt, ids[Int($0)]) < (rows[Int($1)].updatedAt, ids[Int($1)]) }
        case .firstName, .lastName:
            let first = rows.map { Array(NameSearch.fold($0.firstName).utf8) }
            let last = rows.map { Array(NameSearch.fold($0.lastName).utf8) }
            let (primary, secondary) = order == .firstName ? (first, last) : (last, first)
            return positions.sorted { a, b in
                let (a, b) = (Int(a), Int(b))
                if primary[a].isEmpty != primary[b].isEmpty { return primary[b].isEmpty }
                if primary[a] != primary[b] { return primary[a].lexicographicallyPrecedes(primary[b]) }
                if secondary[a] != secondary[b] { return secondary[a].lexicographicallyPrecedes(secondary[b]) }
                return ids[a] < ids[b]
            }
        }
    }
}
