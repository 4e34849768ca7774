import Foundation
import KithCore

/// The account's devices that get notifications by Web Push (docs/push.md). A browser subscribes
/// itself; these read, change and remove what it subscribed, from anywhere.
extension KithClient {
    /// Every device of the signed-in account that gets notifications, oldest first.
    public func pushDevices() async throws -> [WebPushDeviceDTO] {
        let list: WebPushDeviceList = try await authorized(KithAPI.WebPush.list)
        return list.devices
    }

    /// Changes which kinds of notification the device with `id` gets, or its name; nil keeps it.
    public func updatePushDevice(id: String, kinds: [WebPushKind]? = nil, name: String? = nil) async throws
        -> WebPushDeviceDTO
    {
        try await authorized(
            KithAPI.WebPush.update, parameters: [id],
            body: WebPushDeviceUpdate(kinds: kinds?.map(\.rawValue), name: name))
    }

    /// Stops notifications to the device with `id` (until its browser subscribes again).
    public func removePushDevice(id: String) async throws {
        try await authorizedNoContent(KithAPI.WebPush.remove, parameters: [id])
    }
}
