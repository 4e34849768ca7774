import Foundation
import KithKit

/// `kith-bench contacts-search <count>`: fills a ContactBook's offline cache with `count` contacts
/// through its real sync (a Monica answered from memory, 100 contacts a page, as `/api/contacts`
/// sends them), then times offline searches: the first (which builds the in-memory index) and
/// repeated ones, on the main actor as an app's search field does. The target (issue 6): results in
/// under 50 ms at 10,000 contacts.
@MainActor
func contactsSearch(_ arguments: [String]) async throws {
    guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
        FileHandle.standardError.write(Data("usage: kith-bench contacts-search <count>\n".utf8))
        exit(2)
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "kith-bench-contacts-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try MonicaServerAddress("https://monica.bench")
    let client = MonicaClient(server: server, token: "bench", transport: GeneratedMonica(count: count))
    let book = try ContactBook(client: client, cacheURL: directory.appendingPathComponent("cache.sqlite"))

    var started = Date()
    try await book.sync()
    print(String(format: "sync of %d contacts into the cache: %.2f s", count, Date().timeIntervalSince(started)))

    // A book opened afresh, as an app after a relaunch: its first search builds the index.
    let relaunched = try ContactBook(client: client, cacheURL: directory.appendingPathComponent("cache.sqlite"))
    started = Date()
    let first = try await relaunched.search("John")
    print(
        String(
            format: "first search after launch (builds the index): %.1f ms, %d results",
            Date().timeIntervalSince(started) * 1000, first.count))

    let queries = ["John", "jon", "Smith", "mari", "garcia", "Jonh Smit", "acme", "xqz", "li", "Ana Lopez"]
    let prepared = try ContactBook(client: client, cacheURL: directory.appendingPathComponent("cache.sqlite"))
    started = Date()
    try await prepared.prepareSearch()
    print(String(format: "prepareSearch() at launch: %.1f ms", Date().timeIntervalSince(started) * 1000))

    var timings: [Double] = []
    var results: [String: Int] = [:]
    for round in 0..<20 {
        for query in queries {
            started = Date()
            let found = try await relaunched.search(query)
            timings.append(Date().timeIntervalSince(started) * 1000)
            if round == 0 { results[query] = found.count }
        }
    }
    timings.sort()
    func percentile(_ p: Double) -> Double { timings[min(timings.count - 1, Int(Double(timings.count) * p))] }
    print(
        String(
            format: "search (%d runs of %d queries): p50 %.1f ms, p95 %.1f ms, max %.1f ms", 20, queries.count,
            percentile(0.5), percentile(0.95), timings.last ?? 0))
    print("results per query (limit 50): " + queries.map { "\($0)=\(results[$0] ?? 0)" }.joined(separator: ", "))
}

/// Answers `/api/contacts` pages and `/api/countries` from generated contacts.
struct GeneratedMonica: HTTPTransport {
    let count: Int
    static let firsts = [
        "John", "Jon", "Jonathan", "Johnny", "Mary", "Maria", "Marie", "Ana", "Anna", "Lee", "Li", "Sam",
        "Samuel", "Ada", "Grace", "Alan", "Linus", "Margaret", "Tim", "Barbara", "Ken", "Dennis", "Katherine", "Edsger",
    ]
    static let lasts = [
        "Smith", "Smyth", "Garcia", "Lopez", "Doe", "Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton",
        "Berners-Lee", "Liskov", "Thompson", "Ritchie", "Johnson", "Dijkstra", "Nguyen", "Kim", "Müller", "Dubois",
    ]
    static let companies = ["Acme", "Initech", "Globex", "Umbrella", "Hooli", "Stark", "Wayne", "Wonka"]

    func send(_ request: HTTPExchangeRequest) async throws -> HTTPExchangeResponse {
        let path = request.url.path
        if path.hasSuffix("/countries") {
            return HTTPExchangeResponse(
                status: 200, headers: [:], body: Data(#"{"data":{"fr":{"id":"FR","name":"France","iso":"FR"}}}"#.utf8))
        }
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let page = Int(items.first { $0.name == "page" }?.value ?? "1") ?? 1
        let limit = Int(items.first { $0.name == "limit" }?.value ?? "15") ?? 15
        let lastPage = max((count + limit - 1) / limit, 1)
        let range = ((page - 1) * limit)..<min(page * limit, count)
        let contacts = range.map { index -> String in
            let first = Self.firsts[index % Self.firsts.count]
            let last = Self.lasts[(index / Self.firsts.count) % Self.lasts.count]
            let company = Self.companies[index % Self.companies.count]
            return
                #"{"id":\#(index + 1),"first_name":"\#(first)","last_name":"\#(last) \#(index)","complete_name":"\#(first) \#(last) \#(index)","information":{"career":{"job":"Engineer","company":"\#(company)"}},"contactFields":[{"id":\#(index + 1),"content":"\#(first.lowercased()).\#(index)@example.com","contact_field_type":{"id":1,"name":"Email","type":"email"}}]}"#
        }
        let body =
            #"{"data":[\#(contacts.joined(separator: ","))],"meta":{"current_page":\#(page),"last_page":\#(lastPage),"per_page":\#(limit),"total":\#(count)}}"#
        return HTTPExchangeResponse(status: 200, headers: [:], body: Data(body.utf8))
    }
}
