import Hummingbird

/// Web Push on the server (docs/push.md), made once by `buildApplication`: the `/v1/push` routes,
/// the devices' rules (also behind the account page), the channel that turns Family notices into
/// push jobs, the job that plans Contacts reminders' pushes, and the job that sends them.
struct WebPush: Sendable {
    let devices: WebPushDevices
    /// Given to the Family app: its new notices become push jobs in their own transaction.
    let familyNotices: FamilyNoticePushes
    private let parts: AppParts
    private let keys: VAPIDKeyStore

    init(_ parts: AppParts) {
        self.parts = parts
        keys = VAPIDKeyStore(database: parts.database, clock: parts.clock)
        devices = WebPushDevices(
            repository: PushSubscriptionRepository(database: parts.database), keys: keys,
            endpoints: PushEndpointRule(
                allowLoopback: parts.config.push.allowLoopback, resolve: parts.config.push.resolve),
            settings: parts.config.push,
            times: ReminderTimeRepository(database: parts.database), clock: parts.clock, ids: parts.ids)
        familyNotices = FamilyNoticePushes(ids: parts.ids, clock: parts.clock)
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        WebPushController(accounts: parts.accounts, devices: devices).addRoutes(to: router)
    }

    var jobHandlers: [any JobHandler] {
        let (mailFrom, address) = (parts.config.mailFrom, parts.address)
        let subject = { @Sendable in VAPIDKeyPair.subject(mailFrom: mailFrom, publicURL: address.publicURL) }
        let reminders = ReminderRepository(database: parts.database, ids: parts.ids)
        let accounts = MonicaAccountRepository(database: parts.database)
        return [
            PushDeliveryJob(
                devices: devices.repository, notices: FamilyNoticeReader(database: parts.database),
                contactsReminders: ContactsReminderReader(reminders: reminders, accounts: accounts),
                sender: WebPushSender(
                    keys: keys, endpoints: devices.endpoints, subject: subject, timeout: parts.config.push.timeout),
                clock: parts.clock, logger: parts.logger),
            ContactsReminderPushJob(
                devices: devices.repository, times: devices.times, reminders: reminders,
                accounts: accounts, queue: parts.jobs, clock: parts.clock,
                logger: parts.logger),
        ]
    }
}
