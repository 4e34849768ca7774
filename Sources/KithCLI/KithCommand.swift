import ArgumentParser

/// `kith`: the root of the command tree.
struct KithCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kith",
        abstract: "Kith: a self-hosted, offline-first home for personal data.",
        discussion: """
            `kith serve` runs the server; every other command is a client of a Kith server. The global \
            options go before or after the command's name: `kith --profile phone outreach list` is \
            `kith outreach list --profile phone`.
            """,
        subcommands: [
            ServeCommand.self, AccountCommand.self, SyncCommand.self, StatusCommand.self, OutreachCommand.self,
            FoodCommand.self, FamilyCommand.self, RemindersCommand.self, InboxCommand.self, ContactsCommand.self,
            BackupCommand.self, RestoreCommand.self,
        ]
    )

    // Global options work wherever people put them. ArgumentParser parses a command's options out of
    // the whole line, its subcommands' part included, and hands a parsed `@OptionGroup` down to every
    // subcommand that declares one of the same type. So declaring `ClientOptions` here and in each
    // client command makes `kith --server URL outreach list` and `kith outreach list --server URL`
    // the same, with no rewriting of the arguments, and each command's --help still lists them.
    // (`@ParentCommand` reaches one level up only, and hides the options from the subcommand's help.)
    @OptionGroup(title: "Global options") var global: ClientOptions

    /// The commands that are not clients of a server (`serve`, `backup`, `restore`) refuse the
    /// client's options: parsed here, they would otherwise be silently ignored.
    func refuseClientOptions(in command: String, json allowed: Bool) throws {
        var given = [global.server.map { _ in "--server" }, global.profile.map { _ in "--profile" }].compactMap { $0 }
        if global.json, !allowed { given.append("--json") }
        guard !given.isEmpty else { return }
        throw ValidationError(
            "`kith \(command)` does not take \(given.joined(separator: " or ")): "
                + (given.count == 1 ? "it is an option" : "they are options") + " of the client commands.")
    }
}
