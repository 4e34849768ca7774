import Foundation

/// One page of a Monica list, with where it is among the pages.
public struct MonicaPage<Item: Decodable & Sendable>: Decodable, Sendable {
    public var items: [Item]
    public var currentPage: Int
    public var lastPage: Int
    public var perPage: Int?
    public var total: Int?

    public var hasMore: Bool { currentPage < lastPage }

    enum CodingKeys: String, CodingKey { case data, meta }
    enum MetaKeys: String, CodingKey {
        case currentPage = "current_page", lastPage = "last_page", perPage = "per_page", total
    }

    public init(items: [Item], currentPage: Int, lastPage: Int, perPage: Int?, total: Int?) {
        self.items = items
        self.currentPage = currentPage
        self.lastPage = lastPage
        self.perPage = perPage
        self.total = total
    }

    /// Without `meta` (seed 004's edge case "pagination links are missing") the page is the last one.
    public init(from decoder: any Decoder) throws {
        let fields = try decoder.container(keyedBy: CodingKeys.self)
        items = try fields.decode([Lossy<Item>].self, forKey: .data).compactMap(\.value)
        let meta = try? fields.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
        currentPage = meta?.lenientInt(.currentPage) ?? 1
        lastPage = max(meta?.lenientInt(.lastPage) ?? currentPage, currentPage)
        perPage = meta?.lenientInt(.perPage)
        total = meta?.lenientInt(.total)
    }
}
