import ArgumentParser
import Foundation
import KithCore
import KithKit

struct StatusCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract:
            "Who is signed in, how many changes wait to be sent, when this profile last synced, and whether the server answers."
    )
    @OptionGroup var options: ClientOptions

    func run(_ console: Console) async throws {
        try await options.run(console) { profile, output in
            let client = try profile.client()
            let session = try await client.storedSession()
            let store = try profile.localStore()
            let status = ProfileStatus(
                signedIn: session != nil, user: session?.user, server: client.serverURL.absoluteString,
                online: await Self.answers(client.serverURL, profile: profile), pending: try store.pendingCount(),
                lastSyncAt: try store.lastSyncAt())
            output.emit(status) { status.text }
        }
    }

    /// Whether the server answers its health check within the request timeout (`KITH_TIMEOUT`).
    static func answers(_ server: URL, profile: Profile) async -> Bool {
        let request = HTTPExchangeRequest(method: "GET", url: server.appendingPathComponent("healthz"))
        return (try? await profile.transport().send(request).status) == 200
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
        return [who, "Server \(server) (\(reach))", signedIn ? waiting : "\(waiting) after sign-up", last].joined(
            separator: "\n")
    }
}
