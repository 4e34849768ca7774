import Hummingbird
import KithCore

/// An index's `limit`, `page` and `sort`, checked as Monica checks them before any query runs.
struct PageRequest: Sendable {
    static let defaultLimit = 15
    static let maxLimit = 100
    static let sortable = ["created_at", "updated_at", "completed_at", "called_at", "favorited_at"]
    /// Kith's extension to Monica's `sort` (docs/monica.md): contacts by name, which Monica lacks.
    static let nameSortable = ["first_name", "last_name"]

    /// Pages past this hold nothing (100 per page): asked for, they are refused rather than computed.
    static let maxPage = Int(Int32.max)

    let limit: Int
    let page: Int
    /// A column name from `sortable` (or `nameSortable`), and the direction.
    let sortColumn: String
    let descending: Bool

    /// At most `maxPage * maxLimit`: no overflow.
    var offset: Int { (page - 1) * limit }

    init(_ request: Request, sortableHere: Set<String> = ["created_at", "updated_at"]) throws {
        let query = request.uri.formQuery
        // As Laravel: a limit that is no positive number means the default; one above the
        // maximum, however many digits it has, is refused.
        let limitText = query.get("limit").map { String($0) } ?? ""
        if Self.isDigits(limitText), Int(limitText).map({ $0 > Self.maxLimit }) ?? true { throw MonicaError.limitTooBig }
        let limit = Int(limitText) ?? 0
        self.limit = limit > 0 ? limit : Self.defaultLimit
        // As Laravel, a page that is no positive number is the first; one past `maxPage` is refused.
        let pageText = query.get("page").map { String($0) } ?? ""
        if Self.isDigits(pageText), Int(pageText).map({ $0 > Self.maxPage }) ?? true { throw MonicaError.pageTooBig }
        self.page = max(1, Int(pageText) ?? 1)
        let sort = query.get("sort").map { String($0) } ?? ""
        let column = sort.hasPrefix("-") ? String(sort.dropFirst()) : sort
        if sort.isEmpty {
            sortColumn = "created_at"
            descending = false
        } else {
            // Monica knows five sort columns; one this resource lacks made Monica fail with a 500
            // ("Invalid query"). Kith answers that as the invalid criterion it is.
            guard Self.sortable.contains(column) || Self.nameSortable.contains(column), sortableHere.contains(column)
            else { throw MonicaError.invalidSort }
            sortColumn = column
            descending = sort.hasPrefix("-")
        }
    }
}

extension PageRequest {
    /// Only ASCII digits, at least one (`Int` alone would also take "+5").
    fileprivate static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }
}

/// Laravel's length-aware paginator envelope: `data`, `links`, `meta` (with its page links).
/// Items write themselves: a page of 100 full contacts is written straight to bytes, not built
/// as a tree first.
struct PageEnvelope<Item: JSONWritable>: JSONWritable {
    let items: [Item]
    let total: Int
    let request: PageRequest
    /// The index's absolute URL without query, e.g. `https://host/api/contacts`.
    let path: String
    var extraMeta: [(String, JSONTree)] = []

    var lastPage: Int { max(1, (total + request.limit - 1) / request.limit) }

    func url(_ page: Int) -> String { "\(path)?page=\(page)" }

    func writeJSON(to output: inout [UInt8]) {
        var writer = JSONObjectWriter(&output)
        writer.value("data", items, &output)
        writer.value("links", links, &output)
        writer.value("meta", meta, &output)
        writer.end(&output)
    }

    private var links: JSONTree {
        let page = request.page
        return [
            "first": .string(url(1)), "last": .string(url(lastPage)),
            "prev": page > 1 ? .string(url(page - 1)) : .null,
            "next": page < lastPage ? .string(url(page + 1)) : .null,
        ]
    }

    private var meta: JSONTree {
        let page = request.page
        let from: JSONTree = items.isEmpty ? .null : .int(Int64(request.offset + 1))
        let to: JSONTree = items.isEmpty ? .null : .int(Int64(request.offset + items.count))
        var meta = JSONObject([
            ("current_page", .int(Int64(page))), ("from", from), ("last_page", .int(Int64(lastPage))),
            ("links", .array(pageLinks)), ("path", .string(path)), ("per_page", .int(Int64(request.limit))),
            ("to", to), ("total", .int(Int64(total))),
        ])
        for (key, value) in extraMeta { meta[key] = value }
        return .object(meta)
    }

    var response: Response { MonicaResponse.written(self) }

    /// Previous, the page numbers Laravel shows (all of them up to 13 pages, else a window with
    /// "..." gaps), Next.
    private var pageLinks: [JSONTree] {
        let page = request.page
        func link(_ url: String?, _ label: String, active: Bool = false) -> JSONTree {
            ["url": .nullable(url), "label": .string(label), "active": .bool(active)]
        }
        var links = [link(page > 1 ? url(page - 1) : nil, "❮ Previous")]
        for element in Self.window(current: page, last: lastPage) {
            if let number = element {
                links.append(link(url(number), String(number), active: number == page))
            } else {
                links.append(link(nil, "..."))
            }
        }
        links.append(link(page < lastPage ? url(page + 1) : nil, "Next ❯"))
        return links
    }

    /// Laravel's UrlWindow with three pages on each side; nil stands for a "..." gap.
    static func window(current: Int, last: Int) -> [Int?] {
        let onEachSide = 3
        let window = onEachSide * 2
        if last < onEachSide * 2 + 8 { return Array(1...last).map { $0 } }
        let start: [Int?] = [1, 2]
        let finish: [Int?] = [last - 1, last]
        if current <= window { return Array(1...(window + onEachSide)).map { $0 } + [nil] + finish }
        if current > last - window {
            return start + [nil] + Array((last - (window + onEachSide - 1))...last).map { $0 }
        }
        return start + [nil] + Array((current - onEachSide)...(current + onEachSide)).map { $0 } + [nil] + finish
    }
}
