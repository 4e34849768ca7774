import Foundation
import Logging
import ServiceLifecycle

/// Runs stored jobs (docs/jobs.md): a service in the server's lifecycle that claims due jobs one at
/// a time, runs each with its kind's handler, and records the outcome. Any number of servers may
/// run one on the same database: a claim is atomic, so each job runs on one of them.
///
/// Nothing a handler does stops the runner: its errors are logged and the job retried by the kind's
/// policy; a handler that runs past the lease is cancelled and counted as failed; storage errors
/// are logged and the runner tries again at the next poll.
struct JobRunner: Service {
    let repository: JobRepository
    let handlers: [String: any JobHandler]
    let settings: JobSettings
    let clock: Clock
    let wake: JobWakeSignal
    let logger: Logger
    /// This process's name in `jobs.claimed_by`: one per server, so a server knows its own claims.
    let name: String

    init(
        repository: JobRepository, handlers: [any JobHandler], settings: JobSettings, clock: Clock,
        ids: IdentifierSource,
        wake: JobWakeSignal, logger: Logger
    ) throws {
        var byKind: [String: any JobHandler] = [:]
        for handler in handlers {
            // Two handlers for one kind would make the choice arbitrary; a programming error.
            guard byKind[handler.kind] == nil else { throw JobRunnerError.duplicateKind(handler.kind) }
            byKind[handler.kind] = handler
        }
        self.repository = repository
        self.handlers = byKind
        self.settings = settings
        self.clock = clock
        self.wake = wake
        self.logger = logger
        self.name = "runner-" + ids.text()
    }

    func run() async throws {
        var startupJobsPending = true
        var lastCleanup: Int64?
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            if startupJobsPending { startupJobsPending = !(await enqueueStartupJobs()) }
            await reclaimExpiredLeases()
            await runDueJobs()
            let now = clock.nowMillis
            if lastCleanup.map({ now - $0 >= Self.cleanupInterval || now < $0 }) ?? true {
                await deleteOldFinishedJobs(now: now)
                lastCleanup = now
            }
            let pause = await pauseUntilNextJob()
            try? await cancelWhenGracefulShutdown { await wake.wait(timeout: pause) }
        }
    }

    /// The poll interval, or less when a job comes due sooner (at least 10 ms: a clock that stands
    /// still in tests must not make the loop spin).
    func pauseUntilNextJob() async -> Duration {
        guard let next = try? await repository.nextRunAt(kinds: handlers.keys.sorted()) else { return settings.pollInterval }
        let wait = Duration.milliseconds(max(10, next - clock.nowMillis))
        return min(wait, settings.pollInterval)
    }

    /// Claims and runs due jobs until none is left (or the server is stopping).
    func runDueJobs() async {
        let kinds = handlers.keys.sorted()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let now = clock.nowMillis
            let job: Job?
            do {
                job = try await repository.claimNext(
                    kinds: kinds, runner: name, now: now,
                    leaseUntil: Self.adding(settings.lease.inMilliseconds, to: now))
            } catch {
                logger.warning("jobs: could not claim a job: \(error)")
                return
            }
            guard let job, let handler = handlers[job.kind] else { return }
            await execute(job, with: handler)
        }
    }

    private func execute(_ job: Job, with handler: any JobHandler) async {
        var logger = self.logger
        logger[metadataKey: "job"] = "\(job.kind) \(job.key)"
        logger[metadataKey: "attempt"] = "\(job.attempts)/\(job.maxAttempts)"
        let outcome = await Self.outcome(of: job, with: handler, timeout: settings.lease)
        do {
            switch outcome {
            case .success:
                try await repository.complete(job, runner: name, now: clock.nowMillis)
                logger.debug("job done")
            case .failure(let error):
                let permanent = error is JobFailure
                let again = try await repository.fail(
                    job, runner: name, error: "\(error)", retry: handler.retry, permanent: permanent,
                    now: clock.nowMillis)
                if again {
                    logger.warning("job failed, will retry: \(error)")
                } else {
                    logger.error("job failed for good: \(error)")
                }
            }
        } catch {
            // The outcome is lost; the lease runs out and another attempt is made (handlers repeat safely).
            logger.error("jobs: could not record the outcome: \(error)")
        }
    }

    /// The handler's outcome, its errors caught; past `timeout` it is cancelled and counted failed,
    /// so this runner never keeps working on a job another runner may have taken back.
    private static func outcome(of job: Job, with handler: any JobHandler, timeout: Duration) async
        -> Result<Void, any Error>
    {
        await withTaskGroup(of: Result<Void, any Error>?.self) { group in
            group.addTask {
                do {
                    try await handler.run(job)
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                } catch {
                    return nil
                }
                return .failure(JobRunnerError.timedOut(timeout))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(JobRunnerError.timedOut(timeout))
        }
    }

    /// Each handler's job for a server start (a recurring job's first run); whether all were stored.
    private func enqueueStartupJobs() async -> Bool {
        var stored = true
        for handler in handlers.values {
            do {
                guard let job = try handler.jobAtStart(now: clock.now()) else { continue }
                try await repository.enqueue(job, now: clock.nowMillis)
            } catch {
                logger.warning("jobs: could not schedule \(handler.kind) at start, trying again later: \(error)")
                stored = false
            }
        }
        return stored
    }

    private func reclaimExpiredLeases() async {
        do {
            let count = try await repository.reclaimExpired(now: clock.nowMillis)
            if count > 0 { logger.warning("jobs: took back \(count) job(s) whose runner's lease ran out") }
        } catch {
            logger.warning("jobs: could not check for expired leases: \(error)")
        }
    }

    private func deleteOldFinishedJobs(now: Int64) async {
        do {
            try await repository.deleteFinished(before: Self.adding(-settings.keepFinished.inMilliseconds, to: now))
        } catch {
            logger.warning("jobs: could not delete old finished jobs: \(error)")
        }
    }

    private static func adding(_ millis: Int64, to time: Int64) -> Int64 {
        let (sum, overflow) = time.addingReportingOverflow(millis)
        return overflow ? (millis < 0 ? .min : .max) : sum
    }

    /// Old finished jobs are looked for hourly (by the injected clock).
    private static let cleanupInterval: Int64 = 3_600_000
}

enum JobRunnerError: Error, CustomStringConvertible {
    case duplicateKind(String)
    case timedOut(Duration)

    var description: String {
        switch self {
        case .duplicateKind(let kind): "two job handlers are registered for \"\(kind)\""
        case .timedOut(let lease): "the job ran longer than its lease (\(lease)) and was stopped"
        }
    }
}
