import ArgumentParser
import Foundation
import KithCore
import KithKit
import KithKitNIO

/// Options every client command shares: which server, which local profile, which output.
struct ClientOptions: ParsableArguments {
    @Option(help: "The Kith server's URL. Default: the profile's server, else http://127.0.0.1:8080.")
    var server: String?

    @Option(help: "A device's local state under $KITH_HOME (default ~/.kith); use several to act as several devices.")
    var profile: String = "default"

    @Flag(help: "Print JSON instead of text.")
    var json = false

    var profileDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let home = environment["KITH_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".kith")
        return home.appendingPathComponent("profiles").appendingPathComponent(profile)
    }

    var sessionStore: FileSessionStore {
        FileSessionStore(fileURL: profileDirectory.appendingPathComponent("session.json"))
    }

    /// Seconds a request may take: `KITH_TIMEOUT`, default 10 (as the apps' clients).
    static func timeout(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TimeInterval {
        guard let text = environment["KITH_TIMEOUT"] else { return 10 }
        guard let seconds = TimeInterval(text), seconds > 0, seconds <= 600 else {
            throw ValidationError("KITH_TIMEOUT must be a number of seconds (up to 600), got \"\(text)\"")
        }
        return seconds
    }

    func validate() throws {
        guard !profile.isEmpty, profile.allSatisfy({ $0.isLetter || $0.isNumber || "-_.".contains($0) }), profile != ".",
            profile != ".."
        else { throw ValidationError("--profile takes letters, digits, '-', '_' and '.' only") }
        if let server, URL(string: server)?.host == nil {
            throw ValidationError("--server must be a URL like http://127.0.0.1:8080")
        }
    }

    /// This profile's local data: one store per account signed in here, plus data made before sign-up.
    var storeDirectory: LocalStoreDirectory {
        LocalStoreDirectory(url: profileDirectory.appendingPathComponent("data"))
    }

    /// The store of the signed-in account, or the anonymous one when nobody is signed in.
    func localStore() throws -> LocalStore {
        if let session = try sessionStore.load() { return try storeDirectory.store(forUser: session.user.id) }
        return try storeDirectory.anonymousStore()
    }

    /// The live socket for `kith sync --watch`: SwiftNIO's, as Linux's URLSession has no WebSocket.
    func liveTransport() -> any LiveTransport {
        NIOLiveTransport()
    }

    /// A client for the chosen server and profile.
    func client() throws -> KithClient {
        let store = sessionStore
        let url: URL
        if let server, let given = URL(string: server) {
            url = given
        } else if let stored = try store.load() {
            url = stored.serverURL
        } else {
            url = URL(string: "http://127.0.0.1:8080")!
        }
        return KithClient(
            serverURL: url, store: store,
            deviceTokens: FileSecretStore<DeviceTokens>(fileURL: profileDirectory.appendingPathComponent("devices.json")),
            transport: URLSessionTransport(timeout: try Self.timeout()))
    }
}
