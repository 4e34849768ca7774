import ArgumentParser
import Foundation
import KithCore
import KithKit
import KithKitNIO

/// `--json`: results as JSON. A global option (see `KithCommand.global`), also taken by `kith
/// backup` and `kith restore`.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print JSON instead of text.")
    var json = false
}

/// The options every client command shares, before or after the command's name (see
/// `KithCommand.global`): which server, which local profile, which output.
struct ClientOptions: ParsableArguments {
    @Option(help: "The Kith server's URL. Default: KITH_SERVER, else the profile's server, else http://127.0.0.1:8080.")
    var server: String?

    @Option(
        help:
            "A device's local state under $KITH_HOME (default ~/.kith); use several to act as several devices. Default: KITH_PROFILE, else \"default\"."
    )
    var profile: String?

    @OptionGroup var output: OutputOptions

    var json: Bool { output.json }

    func validate() throws {
        if let profile { try Profile.check(name: profile, from: "--profile") }
        if let server { _ = try Profile.check(server: server, from: "--server") }
    }
}

/// A client command's device, as its options and the environment name it: flags win over
/// `KITH_SERVER`, `KITH_PROFILE`, `KITH_HOME` and `KITH_TIMEOUT`, which win over the defaults.
struct Profile: Sendable {
    let name: String
    /// `$KITH_HOME/profiles/NAME`.
    let directory: URL
    /// The server given (`--server`, else `KITH_SERVER`); nil: the session's, else the local one.
    let server: URL?
    /// Seconds a request may take: `KITH_TIMEOUT`, default 10 (as the apps' clients).
    let timeout: TimeInterval
    /// The person's time zone (what "today" is for the nutrition log): `TZ` when it names one, else
    /// the system's.
    let timeZone: TimeZone
    /// The console's clock.
    let now: @Sendable () -> Date

    init(_ options: ClientOptions, environment: [String: String], now: @escaping @Sendable () -> Date) throws {
        if let given = options.profile {
            name = given
        } else if let variable = environment["KITH_PROFILE"] {
            try Self.check(name: variable, from: "KITH_PROFILE")
            name = variable
        } else {
            name = "default"
        }
        if let given = options.server {
            server = try Self.check(server: given, from: "--server")
        } else if let variable = environment["KITH_SERVER"] {
            server = try Self.check(server: variable, from: "KITH_SERVER")
        } else {
            server = nil
        }
        let home =
            environment["KITH_HOME"].map { URL(fileURLWithPath: $0) }
            ?? environment["HOME"].map { URL(fileURLWithPath: $0).appendingPathComponent(".kith") }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".kith")
        directory = home.appendingPathComponent("profiles").appendingPathComponent(name)
        timeout = try Self.timeout(environment)
        timeZone = environment["TZ"].flatMap(TimeZone.init(identifier:)) ?? .current
        self.now = now
    }

    static func check(name: String, from source: String) throws {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), name != ".",
            name != ".."
        else { throw ValidationError("\(source) takes letters, digits, '-', '_' and '.' only") }
    }

    static func check(server: String, from source: String) throws -> URL {
        guard let url = URL(string: server), url.host != nil else {
            throw ValidationError("\(source) must be a URL like http://127.0.0.1:8080")
        }
        return url
    }

    private static func timeout(_ environment: [String: String]) throws -> TimeInterval {
        guard let text = environment["KITH_TIMEOUT"] else { return 10 }
        guard let seconds = TimeInterval(text), seconds > 0, seconds <= 600 else {
            throw ValidationError("KITH_TIMEOUT must be a number of seconds (up to 600), got \"\(text)\"")
        }
        return seconds
    }

    var sessionStore: FileSessionStore {
        FileSessionStore(fileURL: directory.appendingPathComponent("session.json"))
    }

    /// This profile's local data: one store per account signed in here, plus data made before sign-up.
    var storeDirectory: LocalStoreDirectory {
        LocalStoreDirectory(url: directory.appendingPathComponent("data"), now: now, timeZone: timeZone)
    }

    /// The store of the signed-in account, or the anonymous one when nobody is signed in.
    func localStore() throws -> LocalStore {
        if let session = try sessionStore.load() { return try storeDirectory.store(forUser: session.user.id) }
        return try storeDirectory.anonymousStore()
    }

    /// HTTP with this profile's timeout.
    /// HTTP with this profile's timeout: SwiftNIO's, as the live socket (Linux's URLSession spends
    /// a third of a large sync's CPU waking libdispatch).
    /// `atLeast` raises the timeout for commands that move files (a copy of a whole account).
    func transport(atLeast seconds: TimeInterval = 0) -> NIOHTTPTransport {
        NIOHTTPTransport(timeout: max(timeout, seconds))
    }

    /// The live socket for `kith sync --watch`: SwiftNIO's, as Linux's URLSession has no WebSocket.
    func liveTransport() -> any LiveTransport {
        NIOLiveTransport()
    }

    /// A client for the chosen server and this profile.
    func client() throws -> KithClient {
        let store = sessionStore
        let url: URL
        if let server {
            url = server
        } else if let stored = try store.load() {
            url = stored.serverURL
        } else {
            url = URL(string: "http://127.0.0.1:8080")!
        }
        return KithClient(
            serverURL: url, store: store,
            deviceTokens: FileSecretStore<DeviceTokens>(fileURL: directory.appendingPathComponent("devices.json")),
            transport: transport(), now: now)
    }
}

extension ClientOptions {
    /// Runs a client command's body with its profile and output; a failure prints one line on
    /// standard error (`--json`: the wire error body) and exits 1.
    func run(_ console: Console, _ body: (Profile, Output) async throws -> Void) async throws {
        let output = Output(json: json, console: console)
        try await output.run {
            try await body(Profile(self, environment: console.environment, now: console.now), output)
        }
    }
}
