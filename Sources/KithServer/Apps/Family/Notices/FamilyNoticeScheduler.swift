import Foundation
import KithCore

/// Plans a reminder's notices whenever it is written, from any writer, in the write's transaction
/// (`RecordWriteHook`): one job per (reminder, occurrence, kind) on the job runner, keyed so that
/// planning again (every edit) adds nothing already planned. Jobs planned for a due time that an
/// edit moved, or for a reminder since completed or deleted, find out when they run and drop
/// themselves (`NoticePlan.stillStands`): cancelling needs no bookkeeping. A repeat's occurrence
/// also gets its `missed` job, which moves the reminder on if that occurrence is not done in time.
struct FamilyNoticeScheduler: RecordWriteHook {
    let ids: IdentifierSource
    let clock: Clock

    var entities: Set<String> { [FamilyEntities.reminder.name] }

    func written(_ record: SyncRecord, in store: SyncTransaction) async throws {
        guard !record.isDeleted,
            let reminder = FamilyReminder(id: record.id, fields: record.fields, checklist: [], timeZone: .gmt)
        else { return }
        // A reminder made (or moved) two minutes before it is due gets no "in 3 minutes" notice.
        var planned = NoticePlan.upcoming(for: reminder).filter { $0.kind.lead == nil || $0.at >= clock.now() }
        // Recipients of a completion or a movement are read when it is delivered (the parents of that moment).
        if let completion = NoticePlan.completion(of: reminder) { planned.append(completion) }
        if let movement = NoticePlan.movement(of: reminder) { planned.append(movement) }
        if let next = try await nextOccurrence(after: reminder.dueAt, of: record, in: store),
            let missed = NoticePlan.missed(of: reminder, next: next)
        {
            planned.append(missed)
        }
        let now = clock.nowMillis
        for notice in planned {
            let job = try NewJob(
                kind: FamilyNoticeJob.kind, key: FamilyNoticeJob.key(notice),
                payload: FamilyNoticeJob.Payload(
                    scope: record.scope, reminder: notice.reminder.lowercased, kind: notice.kind,
                    occurrence: notice.occurrence.epochMillis, at: notice.at.epochMillis),
                runAt: notice.at.epochMillis, retry: FamilyNoticeJob.retry)
            try await JobRepository.insert(job, id: ids.text(), now: now, sql: store.sql)
        }
    }

    /// The occurrence after `due` when the reminder repeats (on the family's clock), else nil.
    private func nextOccurrence(after due: Date, of record: SyncRecord, in store: SyncTransaction) async throws -> Date?
    {
        guard FamilyRules.repeatFields.contains(where: { record.fields[$0].map { $0 != .null } == true }) else {
            return nil
        }
        let info = try await store.liveRecords([FamilyEntities.info.name])[FamilyEntities.info.name] ?? []
        let zone = FamilyBook(records: info).timeZone
        guard case .success(let recurrence?) = FamilyRules.recurrence(record.fields, timeZone: zone) else { return nil }
        return recurrence.next(after: due)
    }
}
