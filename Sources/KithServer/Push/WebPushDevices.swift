import Foundation
import KithCore

/// An account's devices that get notifications (docs/push.md): every rule about subscribing,
/// changing and removing one, for the API and the account page alike.
struct WebPushDevices: Sendable {
    let repository: PushSubscriptionRepository
    let keys: VAPIDKeyStore
    let endpoints: PushEndpointRule
    let settings: WebPushSettings
    let times: ReminderTimeRepository
    let clock: Clock
    let ids: IdentifierSource

    func publicKey() async throws -> String { try await keys.keyPair().publicKeyText }

    /// Stores the browser's subscription for `user`; the device and whether it is new.
    func subscribe(_ user: AuthenticatedUser, _ request: WebPushSubscribeRequest, userAgent: String?) async throws
        -> (device: WebPushDeviceDTO, created: Bool)
    {
        guard let endpointText = request.endpoint else {
            throw PushSubscriptionCheck.refusal("endpoint is required.", field: "endpoint")
        }
        let endpoint: URL
        switch endpoints.check(endpointText) {
        case .success(let url): endpoint = url
        case .failure(let refusal): throw PushSubscriptionCheck.refusal(refusal.description, field: "endpoint")
        }
        guard let p256dh = request.keys?.p256dh else {
            throw PushSubscriptionCheck.refusal("keys.p256dh is required.", field: "keys.p256dh")
        }
        guard let auth = request.keys?.auth else {
            throw PushSubscriptionCheck.refusal("keys.auth is required.", field: "keys.auth")
        }
        do {
            _ = try WebPushSubscriberKeys(p256dh: p256dh, auth: auth)
        } catch .p256dh(let message) {
            throw PushSubscriptionCheck.refusal(message, field: "keys.p256dh")
        } catch .auth(let message) {
            throw PushSubscriptionCheck.refusal(message, field: "keys.auth")
        }
        let expiry = try PushSubscriptionCheck.expiry(request.expirationTime)
        let kinds = try request.kinds.map(PushSubscriptionCheck.kinds)
        let name = try request.name.map(PushSubscriptionCheck.name)
        let now = clock.nowMillis
        let candidate = PushSubscriptionRow(
            id: ids.text(), userID: user.id.lowercased, endpoint: endpoint.absoluteString,
            p256dh: Self.canonical(p256dh), auth: Self.canonical(auth),
            kinds: PushSubscriptionRow.kindsText(kinds ?? Set(WebPushKind.allCases)),
            name: name ?? DeviceName.from(userAgent: userAgent), expiresAt: expiry, createdAt: now, updatedAt: now,
            lastUsedAt: nil)
        let subscribed: PushSubscriptionRepository.Subscribed
        do {
            subscribed = try await repository.subscribe(
                candidate, kinds: kinds.map(PushSubscriptionRow.kindsText), name: name,
                devicesPerAccount: max(1, settings.devicesPerAccount))
        } catch is PushSubscriptionConflict {
            throw AppError(
                .conflict, .validationFailed, "This browser was just subscribed by another account. Try again.",
                field: "endpoint")
        }
        return (subscribed.device.dto(replaced: subscribed.replaced), subscribed.created)
    }

    func devices(of user: AuthenticatedUser) async throws -> [WebPushDeviceDTO] {
        try await repository.devices(of: user.id.lowercased).map { $0.dto() }
    }

    func update(_ id: String, of user: AuthenticatedUser, _ change: WebPushDeviceUpdate) async throws
        -> WebPushDeviceDTO
    {
        let kinds = try change.kinds.map(PushSubscriptionCheck.kinds).map(PushSubscriptionRow.kindsText)
        let name = try change.name.map(PushSubscriptionCheck.name)
        guard let deviceID = UUID(text: id)?.lowercased,
            let device = try await repository.update(
                deviceID, of: user.id.lowercased, kinds: kinds, name: name, now: clock.nowMillis)
        else { throw AppError.notFound("That device") }
        return device.dto()
    }

    func remove(_ id: String, of user: AuthenticatedUser) async throws {
        guard let deviceID = UUID(text: id)?.lowercased, try await repository.remove(deviceID, of: user.id.lowercased)
        else { throw AppError.notFound("That device") }
    }

    func remove(endpoint: String?, of user: AuthenticatedUser) async throws {
        guard let endpoint else { throw PushSubscriptionCheck.refusal("endpoint is required.", field: "endpoint") }
        // Stored as the URL parser writes it; a page sends it as the browser does, which is the same.
        let stored = URL(string: endpoint)?.absoluteString ?? endpoint
        guard try await repository.remove(endpoint: stored, of: user.id.lowercased) else {
            throw AppError.notFound("That device")
        }
    }

    /// When `user`'s Contacts reminders are pushed.
    func reminderTime(of user: AuthenticatedUser) async throws -> ReminderTime {
        try await times.time(of: user.id.lowercased)
    }

    /// Sets the hour (0-23, text as a form sends it) and zone (an IANA name) of `user`'s Contacts reminders.
    func setReminderTime(of user: AuthenticatedUser, hour: String, zone: String) async throws -> ReminderTime {
        guard let hour = Int(hour), ReminderTime.hours.contains(hour) else {
            throw PushSubscriptionCheck.refusal("Choose an hour from 0 to 23.", field: "hour")
        }
        guard case .success(let name) = FamilyLimits.checkedTimeZone(zone.trimmedWhitespace),
            TimeZone(identifier: name) != nil
        else { throw PushSubscriptionCheck.refusal("Give a time zone such as Europe/Paris.", field: "timeZone") }
        let time = ReminderTime(hour: hour, zoneID: name)
        try await times.set(time, of: user.id.lowercased, now: clock.nowMillis)
        return time
    }

    /// A key as stored: base64url without padding.
    private static func canonical(_ key: String) -> String {
        WebPushBase64.decode(key).map(WebPushBase64.encode) ?? key
    }
}
