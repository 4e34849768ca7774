import Foundation
import KithCore
import Logging

/// Seed 002 req. 11: daily logs older than the retention window are deleted, with their items,
/// everywhere. The server writes the deletions as one more device of each account, through
/// `SyncWriter` with the web pages' clock, so they are checked by the same rules (`NutritionRules`:
/// a day may be deleted only once expired; its items go with it, stamped alike) and every device
/// receives them on its next pull. Custom meals, ingredients and goals are never touched.
///
/// One job per UTC day (`DailyJob`, keyed `nutrition.retention 2026-11-24`). Running twice is
/// harmless: a deleted day is no longer live.
struct NutritionRetentionJob: DailyJob {
    static let kind = "nutrition.retention"

    let retention: NutritionRetention
    let repository: SyncRepository
    let writer: SyncWriter
    let stamps: WebClock
    let queue: JobQueue
    let clock: Clock
    let ids: IdentifierSource
    let logger: Logger

    func runDay(now: Date) async throws {
        let deleted = try await purge(now: now)
        logger.info("nutrition retention: \(deleted) expired day(s) deleted", metadata: ["days": "\(retention.days)"])
    }

    /// Deletes every account's expired days (their items by cascade); how many days. An account
    /// whose purge fails does not stop the others; the first error is thrown afterwards, so the
    /// job is retried (the days already deleted are not live any more and are not read again).
    func purge(now: Date) async throws -> Int {
        var deleted = 0
        var firstError: (any Error)?
        for scope in try await repository.scopes(withLive: NutritionEntities.day.name) {
            do {
                deleted += try await purge(scope: scope, now: now)
            } catch {
                logger.error("nutrition retention: purging \(scope) failed: \(error)")
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        return deleted
    }

    private func purge(scope: String, now: Date) async throws -> Int {
        // Nutrition's entities are per user; a scope of another kind holds none.
        guard scope.hasPrefix("user:") else { return 0 }
        let userID = String(scope.dropFirst("user:".count))
        let records = try await repository.liveRecords(
            [NutritionEntities.day.name, NutritionEntities.goal.name], in: scope)
        let goal = records.first { $0.entity == NutritionEntities.goal.name }
        // The person's zone when a device told it (the goal's), else the server's lenient rule: only
        // what is expired in every zone, exactly what a push of a new day would be refused for.
        let zone = goal?.fields[NutritionFields.timeZone]?.stringValue.flatMap(TimeZone.init(identifier:))
        let context = RuleContext(now: now, timeZone: zone)
        let expired = records.filter { record in
            guard record.entity == NutritionEntities.day.name,
                let date = record.fields[NutritionFields.date]?.stringValue.flatMap(LocalDate.init)
            else { return false }
            return !retention.accepts(date, context)
        }
        var count = 0
        for start in stride(from: 0, to: expired.count, by: Self.batchSize) {
            let batch = expired[start..<min(start + Self.batchSize, expired.count)]
            let mutations = batch.map { day in
                Mutation(
                    mutationId: ids.uuid(), entity: day.entity, id: day.id, scope: scope, op: .delete,
                    hlc: stamps.stamp(after: [day]))
            }
            let results = try await writer.write(mutations, userID: userID)
            for result in results where result.status == .rejected {
                logger.warning(
                    "nutrition retention: a deletion in \(scope) was refused: \(result.code ?? "?") \(result.message ?? "")"
                )
            }
            count += results.filter { $0.status == .applied }.count
        }
        return count
    }

    /// Deletions per `SyncWriter.write` call, as a device's push batches them.
    private static let batchSize = 500
}
