import ArgumentParser

struct KithCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kith",
        abstract: "Kith: a self-hosted, offline-first home for personal data.",
        discussion: "`kith serve` runs the server; every other command is a client of a Kith server.",
        subcommands: [
            ServeCommand.self, AccountCommand.self, SyncCommand.self, StatusCommand.self, OutreachCommand.self,
            ContactsCommand.self,
            BackupCommand.self, RestoreCommand.self,
        ]
    )
}
