import ArgumentParser
import Foundation
import KithCore
import KithKit

struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Who is signed in, how many changes wait to be sent, when this profile last synced, and whether the server answers."
    )
    @OptionGroup var options: ClientOptions

    func run() async throws {
        let output = Output(json: options.json)
        try await output.run {
            let client = try options.client()
            let session = try await client.storedSession()
            let store = try options.localStore()
            let status = ProfileStatus(
                signedIn: session != nil, user: session?.user, server: client.serverURL.absoluteString,
                online: await Self.answers(client.serverURL), pending: try store.pendingCount(),
                lastSyncAt: try store.lastSyncAt())
            output.emit(status) { status.text }
        }
    }

    /// Whether the server answers its health check within the request timeout (`KITH_TIMEOUT`).
    static func answers(_ server: URL) async -> Bool {
        let transport = URLSessionTransport(timeout: (try? ClientOptions.timeout()) ?? 10)
        let request = HTTPExchangeRequest(method: "GET", url: server.appendingPathComponent("healthz"))
        return (try? await transport.send(request).status) == 200
    }
}

struct ProfileStatus: Encodable {
    var signedIn: Bool
    var user: UserDTO?
    var server: String
    var online: Bool
    var pending: Int
    var lastSyncAt: Date?

    var text: String {
        let who = user.map { "Signed in as \($0.email)" } ?? "Not signed in"
        let waiting = pending == 1 ? "1 change waiting to be sent" : "\(pending) changes waiting to be sent"
        let last = lastSyncAt.map { "Last synced \(WireCoding.formatTimestamp($0))" } ?? "Never synced"
        let reach = online ? "online" : "offline"
        return [who, "Server \(server) (\(reach))", signedIn ? waiting : "\(waiting) after sign-up", last].joined(separator: "\n")
    }
}
