import Hummingbird
import KithCore

/// The Family app on the server (docs/family.md): /v1/family and the inbox, the /family pages, and
/// the notices job. Its membership (`FamilyService`) is made before accounts, which ask it before
/// an account is deleted.
struct FamilyApp: ServerApp {
    let families: FamilyService
    let reminders: ReminderService
    let inbox: NoticeInbox
    private let parts: AppParts
    private let noticeChannels: [any NoticeChannel]

    /// What the sync writer runs for every record it stores: a reminder's notices are planned in
    /// the transaction that writes it ("Notices").
    static func writeHooks(_ config: ServerConfig) -> [any RecordWriteHook] {
        [FamilyNoticeScheduler(ids: config.ids, clock: config.clock)]
    }

    static func families(
        database: KithDatabase, sync: SyncRepository, writer: SyncWriter, stamps: WebClock, config: ServerConfig
    )
        -> FamilyService
    {
        FamilyService(
            database: database, sync: sync, writer: writer, stamps: stamps, clock: config.clock, ids: config.ids)
    }

    /// `noticeChannels`: where delivered notices go besides the inbox (Web Push).
    init(_ parts: AppParts, families: FamilyService, noticeChannels: [any NoticeChannel]) {
        self.parts = parts
        self.families = families
        self.noticeChannels = noticeChannels
        reminders = ReminderService(families: families, repository: parts.sync, clock: parts.clock)
        inbox = NoticeInbox(database: parts.database, clock: parts.clock)
    }

    func addRoutes(to router: Router<AppRequestContext>) {
        FamilyController(accounts: parts.accounts, families: families).addRoutes(to: router)
        InboxController(accounts: parts.accounts, inbox: inbox, reminders: reminders).addRoutes(to: router)
        let pages = FamilyPageRenderer(renderer: parts.renderer, inbox: inbox)
        FamilyPages(families: families, reminders: reminders, pages: pages, session: parts.session).addRoutes(
            to: router)
        ReminderPages(reminders: reminders, operations: parts.operations, pages: pages, session: parts.session)
            .addRoutes(to: router)
        NoticePages(inbox: inbox, reminders: reminders, pages: pages, session: parts.session).addRoutes(to: router)
    }

    /// The member's family as a CalDAV calendar of tasks (docs/dav.md); none outside a family.
    func calendars(for user: AuthenticatedUser) async throws -> [any DAVCollection] {
        let family: FamilyDTO
        do {
            family = try await families.family(of: user)
        } catch let error as AppError where error.status == FamilyService.notInFamily.status {
            return []
        }
        return [
            FamilyCalendar(
                user: user, family: family, reminders: reminders, operations: parts.operations, database: parts.database
            )
        ]
    }

    var jobHandlers: [any JobHandler] {
        [
            FamilyNoticeJob(
                database: parts.database, sync: parts.sync, writer: parts.writer, stamps: parts.stamps,
                notifier: parts.notifier, clock: parts.clock, ids: parts.ids, channels: noticeChannels)
        ]
    }
}
