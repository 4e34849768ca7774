import Foundation
import KithCore
import Logging

/// Pushes one notice to one device (docs/push.md). Planned by `FamilyNoticePushes` with the
/// notice, keyed `push:<notice>:<device>` so each device is told once (or by
/// `ContactsReminderPushJob` for a Contacts reminder on a day); jobs for one device run
/// in the order they came due. When it runs it reads the device and the notice as they are then:
/// a device removed or no longer wanting the kind, or a notice that stopped mattering (a
/// before-due notice whose due time passed), ends the job without a send. The push service's
/// answer decides the rest: accepted marks the device used; 404 and 410 forget it; 429 and 5xx
/// are retried, not before its `Retry-After`; anything else fails for good, logged. A device the
/// server may no longer reach (its name now resolves to a private address) is forgotten too.
struct PushDeliveryJob: JobHandler {
    static let kind = "push.deliver"
    /// 10 s doubling to 30 min; a push that stops mattering first ends with nothing sent.
    static let retry = JobRetryPolicy(maxAttempts: 10, firstDelay: .seconds(10), maximumDelay: .seconds(1800))

    /// What to push: a Family notice, or a Contacts reminder on a day.
    struct Payload: Codable, Sendable {
        var device: String
        var notice: String?
        var contactsReminder: ContactsReminder?
    }

    /// A Contacts reminder of Monica account `account` falling on `date` (the person's day,
    /// `YYYY-MM-DD`), pushed at `at`. No user id: a job row outlives an account deleted meanwhile.
    struct ContactsReminder: Codable, Sendable {
        var account: Int64
        var reminder: Int64
        var date: String
        var at: Int64
    }

    static func job(notice: String, device: String, runAt: Int64) throws -> NewJob {
        try NewJob(
            kind: kind, key: "push:\(notice):\(device)", payload: Payload(device: device, notice: notice), runAt: runAt,
            retry: retry)
    }

    static func job(contactsReminder reminder: ContactsReminder, device: String, runAt: Int64) throws -> NewJob {
        try NewJob(
            kind: kind, key: "push:contacts-reminder-\(reminder.reminder)-\(reminder.date):\(device)",
            payload: Payload(device: device, contactsReminder: reminder), runAt: runAt, retry: retry)
    }

    let devices: PushSubscriptionRepository
    let notices: FamilyNoticeReader
    let contactsReminders: ContactsReminderReader
    let sender: WebPushSender
    let clock: Clock
    let logger: Logger

    var kind: String { Self.kind }
    var retry: JobRetryPolicy { Self.retry }

    /// One device's pushes in order (the key is `push:<notice>:<device>`).
    func sequence(of job: Job) -> String? {
        job.key.split(separator: ":").last.map { "push:" + $0 }
    }

    func run(_ job: Job) async throws {
        let payload = try job.payload(as: Payload.self)
        guard let device = try await devices.subscription(payload.device) else { return }
        let content: (message: PushMessage, userID: String)?
        if let notice = payload.notice {
            content = try await notices.message(notice)
        } else if let reminder = payload.contactsReminder {
            content = try await contactsReminders.message(reminder, for: device.userID)
        } else {
            throw JobFailure.permanent("a push job that names nothing to push: \(job.payload)")
        }
        guard let content, content.userID == device.userID, device.wants(content.message.payload.kind) else { return }
        let message = content.message
        let now = clock.nowMillis
        if let expiry = device.expiresAt, expiry <= now {
            try await devices.delete(device.id)
            return
        }
        guard let ttl = message.ttl(now: now) else { return }
        let outcome = try await sender.send(
            try message.plaintext(), to: device, message: message, ttl: ttl, now: Date(epochMillis: now))
        switch outcome {
        case .accepted:
            try await devices.markUsed(device.id, at: clock.nowMillis)
        case .gone(let status):
            logger.info("push: \(device.name) (\(device.id)) is gone (\(status)); forgotten")
            try await devices.delete(device.id)
        case .later(let status, let notBefore):
            throw JobRetryLater(notBefore: notBefore ?? now, reason: "the push service answered \(status)")
        case .refused(let status, let body):
            throw JobFailure.permanent("the push service refused the message (\(status)): \(body)")
        case .notAllowed(let reason):
            try await devices.delete(device.id)
            throw JobFailure.permanent("push endpoint of device \(device.id) not allowed, device forgotten: \(reason)")
        }
    }
}
