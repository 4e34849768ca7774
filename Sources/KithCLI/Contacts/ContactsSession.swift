import ArgumentParser
import Foundation
import KithCore
import KithKit

/// Where a profile's contacts come from, and their offline cache: a Monica server connected with
/// `--monica-url` (saved in `monica.json`), else the Kith server the profile is signed in to
/// (its Monica-compatible `/api`, with the session's access token).
struct ContactsSession {
    enum Source {
        /// A Monica server (or any Monica-compatible one) with a saved API token.
        case monica(MonicaCredentials)
        /// The Kith server the profile is signed in to, as `email`.
        case kith(email: String)
    }

    let source: Source
    let profile: Profile
    let book: ContactBook
    let cacheURL: URL
    let output: Output

    var client: MonicaClient { book.client }
    var server: MonicaServerAddress { client.server }

    /// What to run to sign in again when the server refuses the token.
    var signInHint: String {
        switch source {
        case .monica: "kith contacts connect --monica-url \(server)"
        case .kith: "kith account login EMAIL"
        }
    }

    /// The profile's saved Monica connection (`$KITH_HOME/profiles/NAME/monica.json`, mode 0600).
    static func credentialStore(_ profile: Profile) -> FileSecretStore<MonicaCredentials> {
        FileSecretStore(fileURL: profile.directory.appendingPathComponent("monica.json"))
    }

    /// Who the signed-in Kith account is on the server's `/api` (its `/api/me`), remembered so
    /// that later commands, offline ones too, find the same cache without asking.
    static func kithAccountStore(_ profile: Profile) -> FileSecretStore<KithContactsAccount> {
        FileSecretStore(fileURL: profile.directory.appendingPathComponent("contacts-account.json"))
    }

    /// The cache of `userID` on `server`, in the profile's data directory.
    static func cacheURL(_ profile: Profile, server: MonicaServerAddress, userID: Int) -> URL {
        ContactBook.cacheURL(
            in: profile.directory.appendingPathComponent("data"), server: server, userID: userID)
    }

    /// Opens the profile's contacts: `--monica-url` (with a token: checked with `/me` unless it is
    /// the one saved), else the saved Monica connection, else the signed-in Kith server.
    init(
        _ profile: Profile, _ monica: MonicaOptions, console: Console, output: Output, minimumTimeout: TimeInterval = 0
    ) async throws {
        self.profile = profile
        self.output = output
        let transport = profile.transport(atLeast: minimumTimeout)
        let store = Self.credentialStore(profile)
        let saved = try Self.loaded { try store.load() }
        let client: MonicaClient
        let userID: Int
        if let url = monica.server {
            let server = try MonicaServerAddress(url)
            let token = try monica.token(from: console, prompt: false)?.trimmedWhitespace
            if let saved, saved.server == server, token == nil || token == saved.token {
                client = try Self.restore(store, transport: transport)
                source = .monica(saved)
                userID = saved.user.id
            } else if let token {
                let connected = try await MonicaClient.connect(
                    to: server, token: token, store: store, transport: transport)
                client = connected.client
                source = .monica(connected.credentials)
                userID = connected.credentials.user.id
            } else {
                throw MonicaClientError.invalid(
                    "Give the API token of \(server) with --token-stdin or the \(MonicaOptions.tokenVariable) environment variable."
                )
            }
        } else if let saved {
            client = try Self.restore(store, transport: transport)
            source = .monica(saved)
            userID = saved.user.id
        } else {
            let kith = try await Self.kithServer(profile, transport: transport)
            client = kith.client
            userID = kith.userID
            source = .kith(email: kith.email)
        }
        cacheURL = Self.cacheURL(profile, server: client.server, userID: userID)
        book = try await ContactBook(client: client, cacheURL: cacheURL)
        // A read the server asks to slow down waits as long as it says (at most a minute), once,
        // rather than showing the cache at once as if offline.
        await client.setRateLimitPatience(1) { [output] seconds in
            if !output.json { output.note("The server asked to slow down: waiting \(seconds) s…") }
            try await console.sleep(.seconds(seconds))
        }
    }

    /// The signed-in Kith server's `/api`, with the session's access token, and who the account
    /// is there (asked once, then remembered).
    private static func kithServer(_ profile: Profile, transport: any HTTPTransport) async throws -> (
        client: MonicaClient, userID: Int, email: String
    ) {
        let kith = try profile.client()
        guard let session = try await kith.storedSession() else {
            throw MonicaClientError.invalid(
                "No contacts server: sign in to a Kith server (kith account login EMAIL), or connect to Monica with "
                    + "kith contacts connect --monica-url URL (the token from \(MonicaOptions.tokenVariable) or --token-stdin)."
            )
        }
        let server = try MonicaServerAddress(profile.server ?? session.serverURL)
        let client = MonicaClient(server: server, transport: transport) {
            try await kith.currentSession().accessToken
        }
        let accounts = kithAccountStore(profile)
        if let account = try loaded({ try accounts.load() }), account.server == server,
            account.kithUserID == session.user.id
        {
            return (client, account.monicaUser.id, session.user.email)
        }
        let me = try await client.me()
        try loaded {
            try accounts.save(KithContactsAccount(server: server, kithUserID: session.user.id, monicaUser: me))
        }
        return (client, me.id, session.user.email)
    }

    private static func restore(_ store: FileSecretStore<MonicaCredentials>, transport: any HTTPTransport) throws
        -> MonicaClient
    {
        guard let restored = try loaded({ try MonicaClient.restore(from: store, transport: transport) })
        else {
            throw MonicaClientError.notConnected
        }
        return restored.client
    }

    /// Reading and writing the profile's files: their failures read as the cache's do.
    @discardableResult
    static func loaded<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as KithError { throw MonicaClientError(error) }
    }

    // MARK: Working with the book

    /// Sends address edits made offline, if any wait, before a command reads from the server; a
    /// server that still can't be reached leaves them queued, silently.
    func sendQueuedEdits() async {
        guard let pending = try? await book.pendingAddressEdits(), !pending.isEmpty,
            let replay = try? await book.sendPendingAddressEdits()
        else { return }
        if replay.sent > 0, !output.json {
            note("Sent \(Plural.count(replay.sent, "address edit")) made offline.")
        }
        for refused in replay.refused { note("The server refused an address edit: \(ContactsText.refusal(refused))") }
    }

    /// The address ids with edits not yet on the server.
    func pendingAddressIDs() async throws -> Set<Int> {
        Set(try await book.pendingAddressEdits().map(\.addressID))
    }

    /// A line on stderr (text output only: with --json, stderr carries only errors).
    func note(_ line: String) {
        guard !output.json else { return }
        output.note(line)
    }

    /// "offline: showing … cached at …", for a read answered from the cache; a server that asked
    /// to slow down is not "offline", and says when to try again.
    func offlineNote(_ what: String, reason: MonicaClientError, cachedAt: Date?) {
        let when =
            cachedAt.map { " cached at \(WireCoding.formatTimestamp($0)) (\(RelativeDate.text($0)))" }
            ?? " cached on this device"
        if case .rateLimited(let retryAfter) = reason {
            let again = retryAfter.map { " Try again in \(Plural.count($0, "second"))." } ?? " Try again in a minute."
            note("The server asked to slow down (too many requests): showing \(what)\(when).\(again)")
            return
        }
        note("offline: showing \(what)\(when). \(reason.userMessage)")
    }

    /// The address with this id: this device's copy (its own edits included), else the server's.
    func address(_ id: Int) async throws -> MonicaAddress {
        if let cached = try await book.cachedAddress(id) { return cached }
        return try await client.address(id)
    }

    /// Runs an address edit that needs the address in the cache: when it is not there yet, its
    /// contact is fetched (which caches its addresses) and the edit is tried again.
    func withCachedAddress<T>(_ id: Int, _ edit: () async throws -> T) async throws -> T {
        do {
            return try await edit()
        } catch MonicaClientError.notFound where id > 0 {
            let address = try await client.address(id)
            guard let contactID = address.contact?.id else { throw MonicaClientError.notFound }
            _ = try await book.details(of: contactID)
            return try await edit()
        }
    }
}

/// Where a profile's contacts come from and its cache file, read from the profile alone: no
/// request is made, so `status` and `cache clear` work offline.
struct LocalContacts {
    var status: ContactsStatusJSON
    let server: MonicaServerAddress
    /// nil until the source's account is known on this device (a first sync).
    let cacheURL: URL?

    /// The cache, when there is one; its client is never used.
    func openCache() async throws -> ContactBook? {
        guard let cacheURL, FileManager.default.fileExists(atPath: cacheURL.path) else { return nil }
        return try await ContactBook(client: MonicaClient(server: server, token: ""), cacheURL: cacheURL)
    }
}

extension ContactsSession {
    /// The saved Monica connection, else the signed-in Kith server; nil when neither is set up.
    static func local(_ profile: Profile) throws -> LocalContacts? {
        if let saved = try loaded({ try credentialStore(profile).load() }) {
            let user = [saved.user.name, saved.user.email.map { "<\($0)>" }].compactMap { $0 }.filter { !$0.isEmpty }
                .joined(separator: " ")
            return LocalContacts(
                status: ContactsStatusJSON(
                    source: "monica", server: saved.server.description, user: user, maskedToken: saved.maskedToken),
                server: saved.server, cacheURL: cacheURL(profile, server: saved.server, userID: saved.user.id))
        }
        guard let session = try profile.sessionStore.load() else { return nil }
        let server = try MonicaServerAddress(profile.server ?? session.serverURL)
        let account = try loaded { try kithAccountStore(profile).load() }
        let known = account.flatMap { $0.server == server && $0.kithUserID == session.user.id ? $0 : nil }
        return LocalContacts(
            status: ContactsStatusJSON(source: "kith", server: server.description, user: session.user.email),
            server: server, cacheURL: known.map { cacheURL(profile, server: server, userID: $0.monicaUser.id) })
    }
}

/// Which `/api` user a Kith account is, on which server (see `ContactsSession.kithAccountStore`).
struct KithContactsAccount: Codable, Sendable {
    var server: MonicaServerAddress
    var kithUserID: UUID
    var monicaUser: MonicaUser
}

enum Plural {
    /// "1 contact", "3 contacts".
    static func count(_ number: Int, _ singular: String, _ plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
