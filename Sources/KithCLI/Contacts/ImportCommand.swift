import ArgumentParser
import Foundation
import KithCore
import KithKit

extension ContactsCommand {
    struct Import: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add the contacts of a vCard file, or copy everything from a Monica server (--from).",
            discussion: """
                With a file (a Google Contacts or iPhone export): every card becomes a contact, as \
                a card from a phone does over CardDAV. A card that cannot be read or that the server \
                refuses is named by its number and line, and nothing is imported. Contacts that look \
                like people you already have (the same name, email or phone number) are listed with \
                the command that merges them.

                With --from URL: everything the token's account holds on that server (any Monica 4.x, \
                or another Kith) is copied into this account: contacts with their fields, addresses, \
                tags, relationships, notes, tasks, gifts, reminders, activities, calls, conversations, \
                debts, pets, life events, work, journal, documents and photos. The token comes from \
                --token, \(Self.tokenVariable), or a prompt. Progress is kept in the profile: an \
                import stopped anywhere goes on where it was when run again, and a second run copies \
                nothing twice. What this server refuses is listed with its reason; the rest is copied.
                """)
        static let tokenVariable = "KITH_IMPORT_TOKEN"

        @OptionGroup var options: ClientOptions
        @OptionGroup var monica: MonicaOptions
        @Argument(help: "The .vcf file (UTF-8).") var file: String?
        @Option(help: ArgumentHelp("The server to copy from, such as https://monica.example.com.", valueName: "url"))
        var from: String?
        @Option(help: "The API token of the account to copy from (else \(Self.tokenVariable) or a prompt).")
        var token: String?

        func validate() throws {
            switch (file, from) {
            case (nil, nil):
                throw ValidationError(
                    "Give a vCard file (kith contacts import contacts.vcf) or a server (kith contacts import --from URL)."
                )
            case (.some, .some): throw ValidationError("Give a vCard file or --from, not both.")
            default: break
            }
            if token != nil, from == nil { throw ValidationError("--token goes with --from (the server it is for).") }
        }

        /// Seconds a request of an import may take at least: a 10 MB document on a slow link.
        static let fileTimeout: TimeInterval = 300

        func run(_ console: Console) async throws {
            let timeout = from == nil ? 0 : Self.fileTimeout
            try await ContactsCommand.run(options, monica, console, minimumTimeout: timeout) { session in
                if let from {
                    try await copyAccount(from: from, session, console)
                    return
                }
                let file = file ?? ""
                guard let data = FileManager.default.contents(atPath: file),
                    let text = String(data: data, encoding: .utf8)
                else {
                    throw KithError.invalid(APIErrorDetail(.unreadableFile, "Cannot read \(file) as UTF-8 text."))
                }
                let done = try await session.book.importVCards(text)
                session.output.emit(VCardImportJSON(done)) { Self.sentence(done) }
            }
        }

        private func copyAccount(from address: String, _ session: ContactsSession, _ console: Console) async throws {
            let server = try MonicaServerAddress(address)
            guard
                let token =
                    (token ?? console.environment[Self.tokenVariable]
                    ?? console.readSecret("API token of \(server): "))?.trimmedWhitespace, !token.isEmpty
            else {
                throw MonicaClientError.invalid(
                    "Give the API token of \(server) with --token or the \(Self.tokenVariable) environment variable.")
            }
            let source = MonicaClient(
                server: server, token: token, transport: session.profile.transport(atLeast: Self.fileTimeout))
            let sourceUser: MonicaUser
            do {
                sourceUser = try await source.me()
            } catch MonicaClientError.signedOut {
                throw MonicaClientError.invalid(
                    "\(server) refused this API token: \(MonicaClientError.invalidToken.userMessage)")
            }
            let targetUser = try await session.client.me()
            if server == session.server, sourceUser.id == targetUser.id {
                throw MonicaClientError.invalid("That is this account: give the server and token of another account.")
            }
            let ids = try ImportIDMap(
                fileURL: session.profile.directory.appendingPathComponent(
                    MonicaImport.mapFileName(
                        source: server, sourceUserID: sourceUser.id, target: session.server, targetUserID: targetUser.id
                    )))
            let bar = ImportProgressBar(console: console, quiet: session.output.json)
            // Monica allows 60 requests a minute: a whole account takes minutes, waiting as told.
            for client in [source, session.client] {
                await client.setRateLimitPatience(10) { seconds in
                    bar.show(.waiting(seconds: seconds))
                    try await console.sleep(.seconds(seconds))
                }
            }
            let summary = try await MonicaImport(
                from: source, sourceUserID: sourceUser.id, into: session.client, ids: ids, progress: bar.show
            ).run()
            bar.finish()
            session.output.emit(AccountImportJSON(source: server, summary)) { Self.sentence(summary, from: server) }
        }

        /// "Copied 532 objects from …: 120 contacts, 40 notes…", what an earlier run copied, and
        /// a line per refusal with its reason.
        static func sentence(_ summary: MonicaImportSummary, from server: MonicaServerAddress) -> String {
            let made = summary.counts.filter { $0.copied > 0 }.map { $0.kind.count($0.copied) }
            var text =
                made.isEmpty
                ? "Nothing new to copy from \(server)"
                : "Copied \(Plural.count(summary.copied, "object")) from \(server): \(made.joined(separator: ", "))"
            if summary.alreadyCopied > 0 {
                text += "; \(Plural.count(summary.alreadyCopied, "object")) copied by an earlier run"
            }
            text += "."
            if !summary.refused.isEmpty {
                text += "\n\(Plural.count(summary.refused.count, "object was", "objects were")) not copied:"
                for refusal in summary.refused {
                    text += "\n  \(refusal.kind.singular) #\(refusal.sourceID) \(refusal.name): \(refusal.reason)"
                }
            }
            return text
        }

        /// "Imported 12 contacts; 2 look like people you already have:" and a line per pair.
        static func sentence(_ done: MonicaVCardImport) -> String {
            var text = "Imported \(Plural.count(done.imported, "contact"))"
            let pairs = done.possibleDuplicates
            guard !pairs.isEmpty else { return text + "." }
            text += "; \(pairs.count) \(pairs.count == 1 ? "looks" : "look") like people you already have:"
            for pair in pairs {
                text +=
                    "\n  \(pair.contact.completeName) (#\(pair.contact.id)) and \(pair.existing.completeName) (#\(pair.existing.id)), \(pair.reason): kith contacts merge \(pair.existing.id) \(pair.contact.id)"
            }
            return text
        }
    }
}

/// `kith contacts import --from URL --json`: per kind, what was copied now and before, and what
/// was refused.
struct AccountImportJSON: Encodable {
    struct Refusal: Encodable {
        let kind: String
        let sourceID: Int
        let name: String
        let reason: String

        enum CodingKeys: String, CodingKey { case kind, name, reason, sourceID = "source_id" }
    }

    let source: String
    let copied: [String: Int]
    let alreadyCopied: [String: Int]
    let refused: [Refusal]

    enum CodingKeys: String, CodingKey { case source, copied, refused, alreadyCopied = "already_copied" }

    init(source: MonicaServerAddress, _ summary: MonicaImportSummary) {
        self.source = source.description
        copied = Dictionary(uniqueKeysWithValues: summary.counts.map { ($0.kind.rawValue, $0.copied) })
        alreadyCopied = Dictionary(uniqueKeysWithValues: summary.counts.map { ($0.kind.rawValue, $0.alreadyCopied) })
        refused = summary.refused.map {
            Refusal(kind: $0.kind.rawValue, sourceID: $0.sourceID, name: $0.name, reason: $0.reason)
        }
    }
}

/// The import's progress on standard error: on a terminal one line redrawn ("contacts 45/120
/// [#####-----]"); elsewhere a line per kind when it is done, and a line per wait.
final class ImportProgressBar: @unchecked Sendable {
    private let console: Console
    private let quiet: Bool
    private let lock = NSLock()
    private var current: (kind: ImportedKind, done: Int)?

    init(console: Console, quiet: Bool) {
        self.console = console
        self.quiet = quiet
    }

    func show(_ progress: MonicaImportProgress) {
        guard !quiet else { return }
        lock.withLock {
            switch progress {
            case .waiting(let seconds):
                line("The server asked to slow down: waiting \(Plural.count(seconds, "second"))…")
            case .copying(let kind, let done, let total):
                if let current, current.kind != kind { finished(current) }
                current = (kind, done)
                guard console.errorIsTerminal else { return }
                let width = 24
                let filled = total.map { $0 > 0 ? min(width, done * width / $0) : width } ?? 0
                let bar =
                    total == nil
                    ? ""
                    : " [" + String(repeating: "#", count: filled)
                        + String(repeating: "-", count: width - filled) + "]"
                console.writeError("\r\u{1B}[K\(kind.words) \(done)\(total.map { "/\($0)" } ?? "")\(bar)")
            }
        }
    }

    func finish() {
        guard !quiet else { return }
        lock.withLock {
            // The bar's line goes, whether or not its last kind had anything to say.
            if console.errorIsTerminal { console.writeError("\r\u{1B}[K") }
            if let current { finished(current) }
            current = nil
        }
    }

    private func finished(_ step: (kind: ImportedKind, done: Int)) {
        guard step.done > 0 else { return }
        line("\(step.kind.words): \(step.done)")
    }

    private func line(_ text: String) {
        console.writeError((console.errorIsTerminal ? "\r\u{1B}[K" : "") + text + "\n")
    }
}
