import Foundation
import KithCore
import Logging

/// The Contacts app's dated reminders (birthdays, anniversaries, anything with a day and a
/// repeat) pushed to the devices that want `contacts_reminder`, at each person's chosen hour on
/// their zone's clock (docs/push.md). A job every quarter of an hour finds the people whose hour
/// has come today (or came less than three hours ago: a server that was down catches up) and
/// enqueues a `push.deliver` per reminder falling on their local day and device, keyed by
/// reminder, day and device so each is pushed once however many quarters and servers see it.
struct ContactsReminderPushJob: JobHandler {
    static let kind = "push.contacts-reminders"
    static let retry = JobRetryPolicy(maxAttempts: 3, firstDelay: .seconds(30), maximumDelay: .seconds(120))
    static let slot: Int64 = 15 * 60_000
    /// How long after its hour a day's reminders are still pushed (a server that was down).
    static let catchUp: Int64 = 3 * 3_600_000

    let devices: PushSubscriptionRepository
    let times: ReminderTimeRepository
    let reminders: ReminderRepository
    let accounts: MonicaAccountRepository
    let queue: JobQueue
    let clock: Clock
    let logger: Logger

    var kind: String { Self.kind }
    var retry: JobRetryPolicy { Self.retry }

    static func job(at slotStart: Int64) -> NewJob {
        NewJob(
            kind: kind, key: "\(kind) \(UTCTimestamp.text(millis: slotStart, withMillis: false))", runAt: slotStart,
            retry: retry)
    }

    func jobAtStart(now: Date) throws -> NewJob? {
        Self.job(at: MonicaDate.floorDiv(now.epochMillis, Self.slot) * Self.slot)
    }

    func run(_ job: Job) async throws {
        let now = clock.nowMillis
        // The next quarter after now, not after this job's: a clock that jumped does not replay the gap.
        try await queue.enqueue(Self.job(at: (MonicaDate.floorDiv(now, Self.slot) + 1) * Self.slot))
        var failed: (any Error)?
        for userID in try await devices.users(wanting: .contactsReminder) {
            do {
                try await plan(for: userID, now: now)
            } catch {
                logger.warning("push: could not plan the Contacts reminders of \(userID): \(error)")
                failed = error
            }
        }
        if let failed { throw failed }
    }

    private func plan(for userID: String, now: Int64) async throws {
        let days = try await times.time(of: userID).daysDue(now: now, window: Self.catchUp)
        guard !days.isEmpty, let account = try await accounts.find(userID: userID) else { return }
        let wanting = try await devices.devices(of: userID).filter { $0.wants(.contactsReminder) }
        for (date, at) in days {
            for (_, reminder) in try await reminders.upcoming(account: account.id, from: date, through: date).value {
                let reference = PushDeliveryJob.ContactsReminder(
                    account: account.id, reminder: reminder.id, date: date.ymd, at: at)
                for device in wanting {
                    try await queue.enqueue(
                        try PushDeliveryJob.job(contactsReminder: reference, device: device.id, runAt: now))
                }
            }
        }
    }
}

/// Reads a Contacts reminder for its push job: nil unless the reminder is `recipient`'s and still
/// falls on the day it was planned for (an edit or a deletion since drops it).
struct ContactsReminderReader: Sendable {
    let reminders: ReminderRepository
    let accounts: MonicaAccountRepository

    func message(_ reference: PushDeliveryJob.ContactsReminder, for recipient: String) async throws
        -> (message: PushMessage, userID: String)?
    {
        guard let date = MonicaDate(ymd: reference.date),
            try await accounts.find(userID: recipient)?.id == reference.account
        else { return nil }
        let found = try await reminders.upcoming(account: reference.account, from: date, through: date)
        guard let reminder = found.value.first(where: { $0.reminder.id == reference.reminder })?.reminder else {
            return nil
        }
        let payload = WebPushPayload(
            title: reminder.title, body: found.contacts[reminder.contactID]?.record.completeName ?? "",
            url: "/contacts/\(reminder.contactID)", tag: "contact-reminder:\(reminder.id):\(reference.date)",
            kind: .contactsReminder, noticeId: reminder.uuid, at: Date(epochMillis: reference.at))
        let message = PushMessage(
            payload: payload, mattersUntil: reference.at + 24 * 3_600_000,
            topic: PushMessage.topic("contact-reminder:\(reminder.id)"), urgency: .normal)
        return (message, recipient)
    }
}
