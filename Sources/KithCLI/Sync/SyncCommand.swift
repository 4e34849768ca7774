import ArgumentParser
import Foundation
import KithCore
import KithKit

struct SyncCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send this profile's changes to the server and fetch everyone else's.",
        discussion:
            "With --watch, stays connected: changes made here or elsewhere sync as they happen and are printed, until interrupted. `kith sync log` shows the conflicts sync resolved here and the changes the server refused.",
        subcommands: [SyncLogCommand.self]
    )
    @OptionGroup var options: ClientOptions
    @Flag(help: "Stay live and print changes as they arrive.") var watch = false

    func run(_ console: Console) async throws {
        try await options.run(console) { profile, output in
            let client = try profile.client()
            guard let session = try await client.storedSession() else { throw KithError.notSignedIn }
            let store = try profile.storeDirectory.store(forUser: session.user.id)
            let engine = SyncEngine(store: store, service: client, live: profile.liveTransport())
            if watch {
                try await Self.watch(engine, output: output)
            } else {
                let report = try await engine.sync()
                let summary = SyncSummary(
                    report: report, pending: try store.pendingCount(), lastSyncAt: try store.lastSyncAt())
                output.emit(summary) { summary.text }
            }
        }
    }

    /// Prints every status change and every record a pull changed, one line each (JSON lines with --json).
    private static func watch(_ engine: SyncEngine, output: Output) async throws {
        let statuses = await engine.statusUpdates()
        let events = await engine.events()
        await engine.start()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await status in statuses {
                    output.emitLine(WatchLine(status: status)) { "status: \(status.summary)" }
                }
            }
            group.addTask {
                for await event in events {
                    for line in WatchLine.lines(for: event) { output.emitLine(line) { line.text } }
                }
            }
        }
    }
}

/// What `kith sync` prints.
struct SyncSummary: Encodable {
    var pushed: Int
    var pulled: Int
    var rejected: [RejectionLine]
    var pending: Int
    var lastSyncAt: Date?

    init(report: SyncEngine.Report, pending: Int, lastSyncAt: Date?) {
        pushed = report.pushed
        pulled = report.pulled
        rejected = report.rejected.map(RejectionLine.init)
        self.pending = pending
        self.lastSyncAt = lastSyncAt
    }

    var text: String {
        var lines = ["Sent \(pushed) change\(pushed == 1 ? "" : "s"), received \(pulled). Synced."]
        lines += rejected.map { "Refused by the server: \($0.message) (\($0.entity) \($0.id))" }
        return lines.joined(separator: "\n")
    }
}

struct RejectionLine: Encodable {
    var entity: String
    var id: String
    var code: String
    var message: String

    init(_ rejection: SyncRejection) {
        entity = rejection.entity
        id = rejection.recordId.lowercased
        code = rejection.code
        message = rejection.message
    }
}

/// One line of `kith sync --watch`.
struct WatchLine: Encodable {
    var event: String
    var status: String?
    var pending: Int?
    var message: String?
    var entity: String?
    var id: String?

    init(event: String) { self.event = event }

    init(status: SyncStatus) {
        event = "status"
        pending = status.pending
        switch status {
        case .idle: self.status = "idle"
        case .syncing: self.status = "syncing"
        case .offline: self.status = "offline"
        case .error(let message, _):
            self.status = "error"
            self.message = message
        }
    }

    static func lines(for event: SyncEngine.Event) -> [WatchLine] {
        switch event {
        case .pulled(let changes):
            return changes.map { change in
                var line = WatchLine(event: change.deleted ? "deleted" : "changed")
                line.entity = change.entity
                line.id = change.id.lowercased
                return line
            }
        case .rejected(let rejection):
            var line = WatchLine(event: "rejected")
            line.entity = rejection.entity
            line.id = rejection.recordId.lowercased
            line.message = rejection.message
            return [line]
        case .pushed(let count, let remaining):
            var line = WatchLine(event: "sent")
            line.pending = remaining
            line.message = "\(count)"
            return [line]
        case .conflict(let conflict):
            var line = WatchLine(event: "conflict")
            line.entity = conflict.entity
            line.id = conflict.id.lowercased
            line.message =
                conflict.deletedElsewhere
                ? "deleted elsewhere"
                : "kept here: \(conflict.keptLocal.joined(separator: ", ")); kept from elsewhere: \(conflict.keptRemote.joined(separator: ", "))"
            return [line]
        case .liveConnected: return [WatchLine(event: "live")]
        case .liveDisconnected: return [WatchLine(event: "polling")]
        case .notice(let notice):
            var line = WatchLine(event: "notice")
            line.id = notice.reminderId
            line.message = "\(notice.title): \(notice.body)"
            return [line]
        }
    }

    var text: String {
        switch event {
        case "changed", "deleted": "\(event): \(entity ?? "") \(id ?? "")"
        case "rejected": "refused by the server: \(message ?? "") (\(entity ?? "") \(id ?? ""))"
        case "conflict": "conflict: \(entity ?? "") \(id ?? ""): \(message ?? "")"
        case "sent": "sent \(message ?? "0") change(s), \(pending ?? 0) waiting"
        case "live": "live: connected, changes arrive as they happen"
        case "polling": "live: disconnected, checking every 30 seconds"
        case "notice": "notice: \(message ?? "")"
        default: event
        }
    }
}
