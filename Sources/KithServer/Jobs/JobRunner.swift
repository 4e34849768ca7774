import Foundation
import Logging
import Synchronization
import NIOCore
import NIOPosix
import ServiceLifecycle

/// Runs stored jobs (docs/jobs.md): a service in the server's lifecycle that claims due jobs a
/// batch at a time, runs each with its kind's handler (several at once), and records the outcomes. Any number of servers may
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
    let passes: JobRunnerPasses
    let logger: Logger
    /// This process's name in `jobs.claimed_by`: one per server, so a server knows its own claims.
    let name: String

    init(
        repository: JobRepository, handlers: [any JobHandler], settings: JobSettings, clock: Clock,
        ids: IdentifierSource,
        wake: JobWakeSignal, passes: JobRunnerPasses, logger: Logger
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
        self.passes = passes
        self.logger = logger
        self.name = "runner-" + ids.text()
    }

    func run() async throws {
        var startupJobsPending = true
        var lastCleanup: Int64?
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            if startupJobsPending { startupJobsPending = !(await enqueueStartupJobs()) }
            let pass = passes.begin()
            await reclaimExpiredLeases()
            if await runDueJobs() { passes.finished(pass) }
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

    /// Claims and runs due jobs until none is left (or the server is stopping): a batch at a time,
    /// up to `settings.concurrency` of them at once, the successes recorded in one transaction. At
    /// 100,000 family reminders an hour (bench/run-notices) one job at a time, each with its own
    /// claim and completion commit, fell behind on PostgreSQL. Whether it ended by finding nothing
    /// due (not by a storage error or the server stopping).
    @discardableResult
    func runDueJobs() async -> Bool {
        let kinds = handlers.keys.sorted()
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let now = clock.nowMillis
            let jobs: [Job]
            do {
                jobs = try await repository.claimDue(
                    kinds: kinds, runner: name, now: now,
                    leaseUntil: Self.adding(settings.lease.inMilliseconds, to: now), limit: settings.batchSize)
            } catch {
                logger.warning("jobs: could not claim jobs: \(error)")
                return false
            }
            guard !jobs.isEmpty else { return true }
            let outcomes = await run(jobs)
            await record(outcomes)
        }
        return false
    }

    /// Each job's outcome, at most `settings.concurrency` running at once. The batch shares one
    /// lease (claimed together), so one watchdog on an event loop cancels what is still running
    /// when it ends, and those jobs count as failed: this runner never works on a job another
    /// runner may have taken back. Not a `Task.sleep` per job: a cancelled sleep keeps its timer
    /// (about 250 bytes) until its deadline, and at 667 notices a second a 10-minute lease held
    /// 100 MiB of them (bench/run-notices); a cancelled NIO scheduled task is removed at once.
    private func run(_ jobs: [Job]) async -> [(Job, Result<Void, any Error>)] {
        let lease = settings.lease
        let expired = LeaseEnded()
        let batch = Task { [self] in await runConcurrently(jobs) }
        let watchdog = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: .milliseconds(lease.inMilliseconds)) {
            expired.mark()
            batch.cancel()
        }
        let outcomes = await withTaskCancellationHandler { await batch.value } onCancel: { batch.cancel() }
        watchdog.cancel()
        guard expired.happened else { return outcomes }
        return outcomes.map { job, outcome in
            if case .failure = outcome { return (job, .failure(JobRunnerError.timedOut(lease))) }
            return (job, outcome)
        }
    }

    /// The batch's jobs, up to `settings.concurrency` sequences at once; the jobs of one sequence
    /// (`JobHandler.sequence(of:)`) one after another in the order they were claimed (due order).
    private func runConcurrently(_ jobs: [Job]) async -> [(Job, Result<Void, any Error>)] {
        var sequences: [[Job]] = []
        var index: [String: Int] = [:]
        for job in jobs {
            guard let sequence = handlers[job.kind]?.sequence(of: job) else {
                sequences.append([job])
                continue
            }
            if let at = index[sequence] {
                sequences[at].append(job)
            } else {
                index[sequence] = sequences.count
                sequences.append([job])
            }
        }
        return await withTaskGroup(of: [(Job, Result<Void, any Error>)].self) { group in
            var outcomes: [(Job, Result<Void, any Error>)] = []
            var waiting = sequences[...]
            func start(_ sequence: [Job]) {
                group.addTask { await runInOrder(sequence) }
            }
            let width = max(1, settings.concurrency)
            for sequence in waiting.prefix(width) { start(sequence) }
            waiting = waiting.dropFirst(width)
            while let finished = await group.next() {
                outcomes += finished
                // Past the lease nothing more starts; what never started counts as failed.
                if Task.isCancelled {
                    outcomes += waiting.joined().map { ($0, .failure(CancellationError())) }
                    waiting = []
                }
                if let sequence = waiting.popFirst() { start(sequence) }
            }
            return outcomes
        }
    }

    private func runInOrder(_ jobs: [Job]) async -> [(Job, Result<Void, any Error>)] {
        var outcomes: [(Job, Result<Void, any Error>)] = []
        for job in jobs {
            guard let handler = handlers[job.kind], !Task.isCancelled else {
                outcomes.append((job, .failure(CancellationError())))
                continue
            }
            do {
                try await handler.run(job)
                outcomes.append((job, .success(())))
            } catch {
                outcomes.append((job, .failure(error)))
            }
        }
        return outcomes
    }

    private func record(_ outcomes: [(Job, Result<Void, any Error>)]) async {
        var done: [Job] = []
        for (job, outcome) in outcomes {
            switch outcome {
            case .success:
                done.append(job)
            case .failure(let error):
                await recordFailure(of: job, error)
            }
        }
        do {
            try await repository.completeAll(done, runner: name, now: clock.nowMillis)
        } catch {
            // The outcomes are lost; the leases run out and other attempts are made (handlers repeat safely).
            logger.error("jobs: could not record \(done.count) finished job(s): \(error)")
        }
    }

    private func recordFailure(of job: Job, _ error: any Error) async {
        var logger = self.logger
        logger[metadataKey: "job"] = "\(job.kind) \(job.key)"
        logger[metadataKey: "attempt"] = "\(job.attempts)/\(job.maxAttempts)"
        guard let handler = handlers[job.kind] else { return }
        if let postponed = error as? JobPostponed {
            do {
                try await repository.postpone(job, runner: name, until: postponed.until)
                logger.debug("job postponed: \(postponed)")
            } catch {
                logger.error("jobs: could not postpone: \(error)")
            }
            return
        }
        do {
            let again = try await repository.fail(
                job, runner: name, error: "\(error)", retry: handler.retry, permanent: error is JobFailure,
                notBefore: (error as? JobRetryLater)?.notBefore, now: clock.nowMillis)
            if again {
                logger.warning("job failed, will retry: \(error)")
            } else {
                logger.error("job failed for good: \(error)")
            }
        } catch {
            logger.error("jobs: could not record the outcome: \(error)")
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

/// The runner's passes over the queue, counted for tests: a pass that began after some moment and
/// finished has taken back the expired leases and run every job due by the clock when it looked
/// last, and stored the outcomes. So a test moves the clock, waits for such a pass, and a job that
/// has not run by then is not due (docs/testing.md): no pause stands in for "it did not run".
final class JobRunnerPasses: Sendable {
    private let counts = Mutex((begun: 0, lastFinished: 0))

    init() {}

    /// How many passes have begun.
    var begun: Int { counts.withLock { $0.begun } }
    /// The number of the last pass that finished with nothing due left (0 before the first).
    var lastFinished: Int { counts.withLock { $0.lastFinished } }

    /// A pass begins; its number.
    func begin() -> Int {
        counts.withLock {
            $0.begun += 1
            return $0.begun
        }
    }

    func finished(_ pass: Int) { counts.withLock { $0.lastFinished = pass } }
}

/// Whether a batch's lease ended before it finished (set by the watchdog, read by the runner).
private final class LeaseEnded: Sendable {
    private let state = Mutex(false)
    func mark() { state.withLock { $0 = true } }
    var happened: Bool { state.withLock { $0 } }
}
