import Foundation

/// One page of a Monica list, with where it is among the pages. A list without `meta` (seed
/// 004's edge case "pagination links are missing") is one page.
public struct MonicaPage<Item: LenientDecodable>: Decodable, Sendable {
    /// The items that read (an unreadable one is left out); a page without a `data` list fails.
    @Required public var items: [Item]
    @Lenient var meta: Meta?

    enum CodingKeys: String, CodingKey {
        case meta
        case items = "data"
    }

    /// Monica's `meta`: numbers, sometimes sent as text.
    struct Meta: LenientDecodable {
        @Lenient var currentPage: Int?
        @Lenient var lastPage: Int?
        @Lenient var perPage: Int?
        @Lenient var total: Int?

        enum CodingKeys: String, CodingKey {
            case total
            case currentPage = "current_page", lastPage = "last_page", perPage = "per_page"
        }
    }

    public init(items: [Item], currentPage: Int, lastPage: Int, perPage: Int?, total: Int?) {
        self.items = items
        var meta = Meta()
        meta.currentPage = currentPage
        meta.lastPage = lastPage
        meta.perPage = perPage
        meta.total = total
        self.meta = meta
    }

    public var currentPage: Int { meta?.currentPage ?? 1 }
    /// Never before the current page.
    public var lastPage: Int { max(meta?.lastPage ?? currentPage, currentPage) }
    public var perPage: Int? { meta?.perPage }
    public var total: Int? { meta?.total }

    public var hasMore: Bool { currentPage < lastPage }
}
