import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith family …`: membership, which the server keeps (docs/family.md). Each command calls
/// `/v1/family`, then syncs, so this device's records (names, roles, the family's reminders) follow.
struct FamilyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family",
        abstract: "Your family: create or join one, invite, roles, settings, leave.",
        discussion:
            "Needs a signed-in account and the server. MEMBER is a member's email or display name (any case). Reminders are `kith reminders`.",
        subcommands: [
            Create.self, Show.self, Invite.self, Join.self, Leave.self, Remove.self, Role.self, Settings.self,
        ],
        defaultSubcommand: Show.self
    )

    struct Create: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Found a family; you are its first parent.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The family's name.") var name: String
        @Option(help: "Its IANA time zone (e.g. Europe/Berlin), where repeating reminders are counted. Default: yours.")
        var timeZone: String?
        @Option(help: "How the family sees you. Default: the part of your email before @.") var displayName: String?

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let zone = timeZone ?? Self.ownZone(session.device.store.timeZone)
                let family = try await session.client.createFamily(name: name, timeZone: zone, displayName: displayName)
                session.output.emit(FamilyJSON(family)) {
                    "Created \(family.name) (\(family.timeZone)). Invite others with `kith family invite --role parent|child`."
                }
            }
        }

        /// The person's zone when it is an IANA name the server takes; else the server's default (UTC).
        static func ownZone(_ zone: TimeZone) -> String? {
            if case .success(let name) = FamilyLimits.checkedTimeZone(zone.identifier) { return name }
            return nil
        }
    }

    struct Show: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "The family, its members and their roles (offline: this device's copy, without emails).")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let shown: FamilyJSON
                do {
                    guard let family = try await session.client.family() else { throw FamilySession.notInFamily }
                    shown = FamilyJSON(family)
                } catch let error as any UserFacingError where error.kind == .unreachable {
                    shown = FamilyJSON(try session.knownFamily())
                    session.output.note("Offline: this device's copy of the family, without emails.")
                }
                session.output.emit(shown) { FamilyText.family(shown, me: session.family.family?.me) }
            }
        }
    }

    struct Invite: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a join code (parents): single use, valid for an hour, for one role.")
        @OptionGroup var options: ClientOptions
        @Option(help: "The role the code gives: parent or child.") var role: FamilyRole

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let code = try await session.client.createJoinCode(role: role)
                let text = code.code ?? "?"
                session.output.emit(code) {
                    "Join code \(text) for a \(role.rawValue), valid until \(FamilyText.when(code.expiresAt, in: session.device.store.timeZone)) (an hour). "
                        + "They run `kith family join \(text)`."
                }
            }
        }
    }

    struct Join: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Join a family with a code a parent made.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The join code (XXXX-XXXX).") var code: String
        @Option(help: "How the family sees you. Default: the part of your email before @.") var displayName: String?

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let family = try await session.client.joinFamily(code: code, displayName: displayName)
                session.output.emit(FamilyJSON(family)) { "Joined \(family.name) as a \(family.role.rawValue)." }
            }
        }
    }

    struct Leave: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Leave your family; its reminders leave this device. The last parent can't leave while others remain.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let name = session.family.family?.name
                try await session.client.leaveFamily()
                session.output.emit(["left": name]) { "You left \(name ?? "your family")." }
            }
        }
    }

    struct Remove: ConsoleCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a member from the family (parents).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The member's email or display name.") var member: String

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let target = try await session.serverMember(member)
                let family = try await session.client.removeMember(userId: target.userId)
                session.output.emit(FamilyJSON(family)) { "Removed \(target.displayName) from \(family.name)." }
            }
        }
    }

    struct Role: ConsoleCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a member a parent or a child (parents; a family always keeps a parent).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The member's email or display name.") var member: String
        @Argument(help: "parent or child.") var role: FamilyRole

        func run(_ console: Console) async throws {
            try await FamilySession.runOnline(options, console) { session in
                let target = try await session.serverMember(member)
                let family = try await session.client.updateMember(userId: target.userId, role: role)
                session.output.emit(FamilyJSON(family)) { "\(target.displayName) is now a \(role.rawValue)." }
            }
        }
    }
}

// Parsed from its raw value, "parent" or "child".
extension FamilyRole: ExpressibleByArgument {}
