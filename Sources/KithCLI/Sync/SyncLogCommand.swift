import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith sync log`: what sync decided on this device: conflicts the merge
/// resolved (whose value was kept, field by field; edits of records deleted elsewhere) and changes
/// the server refused, newest first.
struct SyncLogCommand: ConsoleCommand {
    static let configuration = CommandConfiguration(
        commandName: "log", abstract: "The conflicts sync resolved on this device and the changes the server refused.")
    @OptionGroup var options: ClientOptions
    @Option(help: "How many entries of each kind (default 50).") var limit = 50
    @Flag(help: "Forget the entries after printing them.") var clear = false

    func validate() throws {
        guard (1...500).contains(limit) else { throw ValidationError("--limit takes 1 to 500.") }
    }

    func run(_ console: Console) async throws {
        try await options.run(console) { profile, output in
            let store = try profile.localStore()
            let log = SyncLog(
                conflicts: try store.conflictLog(limit: limit).map(SyncLog.Conflict.init),
                rejections: Array(try store.rejections().prefix(limit)).map(SyncLog.Rejection.init))
            if clear {
                try store.clearConflictLog()
                try store.clearRejections()
            }
            output.emit(log) { log.text }
        }
    }
}

/// What `kith sync log` prints.
struct SyncLog: Encodable {
    struct Conflict: Encodable {
        let at: Date
        let entity: String
        let id: String
        let keptLocal: [String]
        let keptRemote: [String]
        let deletedElsewhere: Bool
        let summary: String

        init(_ logged: LoggedConflict) {
            at = logged.at
            entity = logged.conflict.entity
            id = logged.conflict.id.lowercased
            keptLocal = logged.conflict.keptLocal
            keptRemote = logged.conflict.keptRemote
            deletedElsewhere = logged.conflict.deletedElsewhere
            summary = logged.summary
        }
    }

    struct Rejection: Encodable {
        let at: Date
        let entity: String
        let id: String
        let code: String
        let message: String

        init(_ rejection: SyncRejection) {
            at = rejection.at
            entity = rejection.entity
            id = rejection.recordId.lowercased
            code = rejection.code
            message = rejection.message
        }
    }

    let conflicts: [Conflict]
    let rejections: [Rejection]

    var text: String {
        if conflicts.isEmpty && rejections.isEmpty { return "No conflicts and no refused changes." }
        let conflictLines = conflicts.map {
            "\(WireCoding.formatTimestamp($0.at))  conflict  \($0.entity) \($0.id.prefix(8)): \($0.summary)"
        }
        let rejectionLines = rejections.map {
            "\(WireCoding.formatTimestamp($0.at))  refused   \($0.entity) \($0.id.prefix(8)): \($0.message) (\($0.code))"
        }
        return (conflictLines + rejectionLines).joined(separator: "\n")
    }
}
