import Foundation
import KithCore

/// Copies everything one account holds on a Monica-compatible server (any Monica 4.x, or a Kith
/// server) into another account, through Monica's API on both sides: ids remapped, links between
/// objects kept.
///
/// Each object made on the target is written to the `ImportIDMap` before the next is tried, and
/// its request carries an `Idempotency-Key` naming the source object: an import stopped anywhere
/// starts again where it was, and a second run makes nothing. What the target refuses (its 422)
/// is left out and reported with the target's reason; what depends on it is reported too. Any
/// other failure (the network, a server error, a refused token) stops the import: run it again.
///
/// Shared vocabularies (genders, contact field types, activity types, relationship and life
/// event types, pet categories) are matched by name; a gender, field type or activity type the
/// target lacks is made.
public actor MonicaImport {
    let source: MonicaClient
    let target: MonicaClient
    let ids: ImportIDMap
    /// Names this import's write keys apart from every other source's and account's. A key is at
    /// most 128 characters: the host is cut to 40, which leaves ample room for an object's key.
    let keyPrefix: String
    let progress: @Sendable (MonicaImportProgress) -> Void
    var summary = MonicaImportSummary()

    /// Source objects by id, as read, for what later steps need of them.
    var contacts: [Int: JSONTree] = [:]
    var genders: [String: Int] = [:]
    var fieldTypes: [String: Int] = [:]
    var activityTypes: [String: Int] = [:]
    /// A photo's `link` on the source: the avatar that shows it names it by that link.
    var photoLinks: [String: Int] = [:]

    /// `sourceUserID` is the source account's user id (its `/me`), to tell its write keys apart.
    public init(
        from source: MonicaClient, sourceUserID: Int, into target: MonicaClient, ids: ImportIDMap,
        progress: @escaping @Sendable (MonicaImportProgress) -> Void = { _ in }
    ) {
        self.source = source
        self.target = target
        self.ids = ids
        self.progress = progress
        keyPrefix = "kith-import:\(Self.plainName(of: source.server).prefix(40)):\(sourceUserID):"
    }

    /// The map file's name for this source account and target account: one map per pair, so an
    /// import into another account starts afresh.
    public static func mapFileName(
        source: MonicaServerAddress, sourceUserID: Int, target: MonicaServerAddress, targetUserID: Int
    ) -> String {
        "import-\(plainName(of: source))-\(sourceUserID)-into-\(plainName(of: target))-\(targetUserID).ids"
    }

    /// A server as a file name's or a write key's word: its host and port, in plain ASCII.
    static func plainName(of server: MonicaServerAddress) -> String {
        let url = server.apiURL
        return ((url.host ?? "server") + (url.port.map { "-\($0)" } ?? "")).filter {
            $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-")
        }
    }

    /// Copies everything, in dependency order, and says what was done.
    public func run() async throws -> MonicaImportSummary {
        try await copyVocabularies()
        try await copyCompaniesAndPlaces()
        try await copyContacts()
        try await copyPartialContactsAndRelationships()
        try await copyIntroductions()
        try await copyFiles()
        try await copyAvatars()
        try await copyContactRecords()
        try await copyJournal()
        try await copyMe()
        return summary
    }

    // MARK: One object at a time

    /// Why an object is left out before it is sent: what it points at was not copied.
    struct Unmet: Error {
        let reason: String
    }

    /// Copies the object `key` names unless the map has it: `make` sends it (with `writeKey`)
    /// and gives the target's id. A refusal is recorded and the import goes on; other failures
    /// stop it. The target id, or nil when it is not there.
    @discardableResult
    func copy(
        _ kind: ImportedKind, _ key: String, sourceID: Int, name: @autoclosure () -> String,
        _ make: (_ writeKey: String) async throws -> Int
    ) async throws -> Int? {
        if let done = ids[key] {
            summary.add(kind, copied: false)
            return done
        }
        do {
            let id = try await make(keyPrefix + key)
            try ids.record(key, id)
            summary.add(kind, copied: true)
            return id
        } catch let unmet as Unmet {
            refuse(kind, sourceID, name(), unmet.reason)
        } catch MonicaClientError.rejected(let status, let messages) {
            refuse(kind, sourceID, name(), messages.isEmpty ? "refused (\(status))" : messages.joined(separator: " "))
        } catch MonicaClientError.notFound {
            refuse(kind, sourceID, name(), "the target server found no such object to attach it to")
        }
        return nil
    }

    func refuse(_ kind: ImportedKind, _ sourceID: Int, _ name: String, _ reason: String) {
        summary.refused.append(.init(kind: kind, sourceID: sourceID, name: name, reason: reason))
    }

    /// Every item of a source list, page by page, with progress as `kind`. A list the source
    /// does not serve (a Monica server has no day ratings) is empty.
    func eachItem(
        _ path: String, _ query: [(String, String)] = [], as kind: ImportedKind, optional: Bool = false,
        _ body: (JSONTree) async throws -> Void
    ) async throws {
        var page = 1
        var done = 0
        progress(.copying(kind, done: 0, total: nil))
        while true {
            let answer: (items: [JSONTree], hasMore: Bool, total: Int?)
            do {
                answer = try await source.jsonPage(path, query, page: page)
            } catch MonicaClientError.notFound where optional {
                return
            }
            for item in answer.items {
                try await body(item)
                done += 1
                progress(.copying(kind, done: done, total: answer.total))
            }
            guard answer.hasMore else { return }
            page += 1
        }
    }

    /// The target id of the source contact `id`, or `Unmet` when it was not copied.
    func contact(_ id: Int?) throws -> Int {
        guard let id, let copied = ids["contact:\(id)"] else { throw Unmet(reason: "its contact was not copied") }
        return copied
    }

    /// The source contact's id of an object that belongs to one (`contact: {id: …}`).
    static func contactID(of item: JSONTree) -> Int? { item["contact"]?["id"].flatMap(MonicaClient.number) }

    static func id(_ item: JSONTree) -> Int { item["id"].flatMap(MonicaClient.number) ?? 0 }

    /// The target's id from a write's answer.
    static func madeID(_ answer: JSONTree, _ what: String) throws -> Int {
        guard let id = answer["id"].flatMap(MonicaClient.number) else {
            throw MonicaClientError.invalidResponse("the target's answer to a new \(what) has no id")
        }
        return id
    }

    /// "POST path" with `body`, keyed; the new object's id.
    func create(_ path: String, _ body: JSONTree, _ writeKey: String) async throws -> Int {
        try Self.madeID(try await target.json("POST", path, body: body, idempotencyKey: writeKey), path)
    }
}
