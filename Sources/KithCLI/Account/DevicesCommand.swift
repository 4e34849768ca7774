import ArgumentParser
import Foundation
import KithCore
import KithKit

/// `kith account devices`: the browsers and phones that get this account's notifications
/// (docs/push.md). Switching them on happens in each browser; here they are listed and removed.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Devices that get your notifications.",
        subcommands: [List.self, Remove.self],
        defaultSubcommand: List.self
    )

    struct List: ConsoleCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List your devices.")
        @OptionGroup var options: ClientOptions

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                let devices = try await profile.client().pushDevices()
                output.emit(WebPushDeviceList(devices: devices)) {
                    guard !devices.isEmpty else {
                        return "No device gets notifications. Switch them on in Kith in the browser that should."
                    }
                    return devices.map { device in
                        let used =
                            device.lastUsedAt.map { "last notified \(WireCoding.formatTimestamp($0))" }
                            ?? "never notified"
                        let kinds =
                            device.kinds.isEmpty ? "nothing" : device.kinds.map(\.rawValue).joined(separator: ", ")
                        return
                            "\(device.id)  \(device.name)  (added \(WireCoding.formatTimestamp(device.createdAt)), \(used); told: \(kinds))"
                    }.joined(separator: "\n")
                }
            }
        }
    }

    struct Remove: ConsoleCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Stop notifications to a device.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The device's id, from `kith account devices`.") var id: String

        func run(_ console: Console) async throws {
            try await options.run(console) { profile, output in
                guard let uuid = UUID(text: id) else {
                    throw ValidationError("The id must be a device id (a UUID).")
                }
                try await profile.client().removePushDevice(id: uuid.lowercased)
                output.emit(["removed": uuid.lowercased]) { "Device removed." }
            }
        }
    }
}
