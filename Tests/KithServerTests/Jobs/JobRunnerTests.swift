import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Logging
import Testing

@testable import KithServer

/// The persisted job runner (docs/jobs.md) inside a running server: due jobs run once, failures are
/// retried later and later (the test moves the server's clock), and jobs outlive the server.
@Suite("Job runner")
struct JobRunnerTests {
    @Test(arguments: Engine.available)
    func dueJobsRunOnceAndLaterOnesWaitTheirTurn(engine: Engine) async throws {
        let handler = RecordingJobHandler(kind: "test.record")
        try await TestServer.withRouter(engine, configure: JobTesting.configure([handler])) { server, _ in
            for key in ["a", "b", "c"] { #expect(try await JobTesting.enqueue(server, handler, key: key)) }
            try await JobTesting.enqueue(server, handler, key: "later", in: 3600)

            try await eventually { handler.totalCalls == 3 }
            #expect(handler.callsByKey == ["a": 1, "b": 1, "c": 1])
            // The runner marks a job done after its handler returned: wait for that write too.
            try await eventually { try await JobTesting.job(server, "a").status == .done }
            let done = try await JobTesting.job(server, "a")
            #expect(done.status == .done)
            #expect(done.attempts == 1)
            #expect(done.finishedAt == server.clock.now.epochMillis)
            #expect(done.claimedBy == nil && done.claimedUntil == nil)

            server.clock.advance(by: 3599)
            try await server.app.jobsCaughtUp()
            #expect(handler.callsByKey["later"] == nil, "not due yet")
            #expect(try await JobTesting.job(server, "later").status == .pending)

            server.clock.advance(by: 1)
            try await eventually { handler.callsByKey["later"] == 1 }
            #expect(try await !JobTesting.enqueue(server, handler, key: "a"), "a key is used once")
            try await server.app.jobsCaughtUp()
            #expect(handler.callsByKey == ["a": 1, "b": 1, "c": 1, "later": 1])
        }
    }

    @Test(arguments: Engine.available)
    func aFailingJobIsRetriedLaterAndLaterUntilItSucceeds(engine: Engine) async throws {
        let handler = RecordingJobHandler(kind: "test.flaky") { job in
            if job.attempts < 4 { throw HandlerFailure(description: "mail server down (attempt \(job.attempts))") }
        }
        try await TestServer.withRouter(engine, configure: JobTesting.configure([handler])) { server, _ in
            try await JobTesting.enqueue(server, handler, key: "flaky")
            // 10 s, 20 s, then 25 s: doubled each time, capped.
            for (attempt, delay) in [(1, 10), (2, 20), (3, 25)] {
                try await eventually {
                    let job = try await JobTesting.job(server, "flaky")
                    return job.attempts == attempt && job.status == .pending
                }
                let job = try await JobTesting.job(server, "flaky")
                #expect(job.runAt == server.clock.now.epochMillis + Int64(delay) * 1000, "attempt \(attempt)")
                #expect(job.lastError == "mail server down (attempt \(attempt))")

                server.clock.advance(by: TimeInterval(delay - 1))
                try await server.app.jobsCaughtUp()
                #expect(try await JobTesting.job(server, "flaky").attempts == attempt, "not retried before its time")
                server.clock.advance(by: 1)
            }
            try await eventually { try await JobTesting.job(server, "flaky").status == .done }
            let job = try await JobTesting.job(server, "flaky")
            #expect(job.attempts == 4)
            #expect(job.lastError == nil)
            #expect(handler.callsByKey == ["flaky": 4])
        }
    }

    /// A handler told when to come back (a push service's Retry-After) is run again then, not
    /// sooner; the policy's backoff still wins when it is later.
    @Test(arguments: Engine.available)
    func aJobToldToComeBackLaterRunsAgainNotBeforeThen(engine: Engine) async throws {
        let clock = Locked<KithServer.Clock?>(nil)
        let handler = RecordingJobHandler(kind: "test.later") { job in
            let now = clock.value!.nowMillis
            switch (job.key, job.attempts) {
            case ("later", 1): throw JobRetryLater(notBefore: now + 45_000, reason: "come back in 45 s")
            case ("sooner", 1): throw JobRetryLater(notBefore: now + 2_000, reason: "come back in 2 s")
            default: return
            }
        }
        try await TestServer.withRouter(engine, configure: JobTesting.configure([handler])) { server, _ in
            clock.value = server.config.clock
            try await JobTesting.enqueue(server, handler, key: "later")
            try await JobTesting.enqueue(server, handler, key: "sooner")
            try await eventually { handler.totalCalls == 2 }
            try await server.app.jobsCaughtUp()
            let later = try await JobTesting.job(server, "later")
            #expect(later.status == .pending && later.runAt == server.clock.now.epochMillis + 45_000)
            #expect(later.lastError == "come back in 45 s")
            #expect(
                try await JobTesting.job(server, "sooner").runAt == server.clock.now.epochMillis + 10_000,
                "the policy's 10 s, later than the 2 s asked")
            server.clock.advance(by: 44)
            try await server.app.jobsCaughtUp()
            #expect(handler.callsByKey == ["later": 1, "sooner": 2], "not before the time it was given")
            server.clock.advance(by: 1)
            try await eventually { try await JobTesting.job(server, "later").status == .done }
            #expect(handler.callsByKey == ["later": 2, "sooner": 2])
        }
    }

    @Test(arguments: Engine.available)
    func failuresEndInFailedWithoutStoppingTheRunner(engine: Engine) async throws {
        let broken = RecordingJobHandler(
            kind: "test.broken",
            retry: JobRetryPolicy(maxAttempts: 2, firstDelay: .seconds(10), maximumDelay: .seconds(10))
        ) { _ in throw HandlerFailure(description: "always broken") }
        let hopeless = RecordingJobHandler(kind: "test.hopeless") { _ in throw JobFailure.permanent("cannot ever work")
        }
        let fine = RecordingJobHandler(kind: "test.fine")
        try await TestServer.withRouter(engine, configure: JobTesting.configure([broken, hopeless, fine])) {
            server, _ in
            try await JobTesting.enqueue(server, broken, key: "broken")
            try await JobTesting.enqueue(server, hopeless, key: "hopeless")
            try await JobTesting.enqueue(server, fine, key: "fine before")
            try await eventually {
                let broken = try await JobTesting.job(server, "broken")
                let hopeless = try await JobTesting.job(server, "hopeless")
                let fine = try await JobTesting.job(server, "fine before")
                return broken.attempts == 1 && broken.status == .pending && hopeless.status == .failed
                    && fine.status == .done
            }
            let hopelessJob = try await JobTesting.job(server, "hopeless")
            #expect(hopelessJob.attempts == 1, "a permanent failure is not retried")
            #expect(hopelessJob.lastError == "cannot ever work")

            server.clock.advance(by: 10)
            try await eventually { try await JobTesting.job(server, "broken").status == .failed }
            let brokenJob = try await JobTesting.job(server, "broken")
            #expect(brokenJob.attempts == 2)
            #expect(brokenJob.lastError == "always broken")
            #expect(brokenJob.finishedAt == server.clock.now.epochMillis)

            // The runner goes on after all that.
            try await JobTesting.enqueue(server, fine, key: "fine after")
            try await eventually { fine.callsByKey["fine after"] == 1 }
            try await server.app.jobsCaughtUp()
            #expect(broken.totalCalls == 2)
            #expect(hopeless.totalCalls == 1)
        }
    }

    /// Many due at once (a burst of family notices): claimed a batch at a time and run several
    /// at once, never more than `concurrency`, each once; a failure in a batch leaves the others done.
    @Test(arguments: Engine.available)
    func aBurstOfDueJobsRunsSeveralAtOnceEachOnce(engine: Engine) async throws {
        let running = Locked((now: 0, most: 0))
        let burst = RecordingJobHandler(kind: "test.burst") { job in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            defer { running.withLock { $0.now -= 1 } }
            try await Task.sleep(for: .milliseconds(5))
            if job.key == "burst 7" { throw JobFailure.permanent("this one is broken") }
        }
        let configure = JobTesting.configure([burst])
        try await TestServer.withRouter(engine, configure: { config in
            configure(&config)
            config.jobs.batchSize = 16
            config.jobs.concurrency = 4
        }) { server, _ in
            // Stored before the runner may look, so they are due together.
            let repository = JobTesting.repository(server)
            let now = server.clock.now.epochMillis
            for index in 0..<100 {
                try await repository.enqueue(
                    NewJob(kind: burst.kind, key: "burst \(index)", runAt: now, retry: burst.retry), now: now)
            }
            try await eventually { try await repository.jobs(kind: burst.kind).allSatisfy { $0.status != .running && $0.status != .pending } }
            let jobs = try await repository.jobs(kind: burst.kind)
            #expect(jobs.count == 100)
            #expect(jobs.filter { $0.status == .done }.count == 99)
            #expect(try await repository.job(key: "burst 7")?.status == .failed)
            #expect(burst.callsByKey.count == 100 && burst.callsByKey.values.allSatisfy { $0 == 1 }, "each once")
            let most = running.value.most
            #expect(most > 1 && most <= 4, "several at once, at most 4: \(most)")
        }
    }

    /// Jobs of one sequence run one after another in the order they came due, even claimed in one
    /// batch with room to run them all at once (a reminder's notices arrive in time order).
    @Test(arguments: Engine.available)
    func jobsOfOneSequenceRunInTheOrderTheyCameDue(engine: Engine) async throws {
        let handler = SequencedJobHandler()
        try await TestServer.withRouter(engine, configure: JobTesting.configure([handler])) { server, _ in
            let now = server.clock.now.epochMillis
            // Stored latest first, due earliest first: the order comes from the due times. One
            // transaction, so the runner finds them all in one batch.
            try await server.app.database.transaction { sql in
                for step in (1...6).reversed() {
                    let key = "\(step % 2 == 0 ? "even" : "odd") \(step)"
                    let job = NewJob(kind: handler.kind, key: key, runAt: now - 10 + Int64(step), retry: JobTesting.policy)
                    try await JobRepository.insert(job, id: UUID().uuidString, now: now, sql: sql)
                }
            }
            try await eventually { handler.order.value.count == 6 }
            let order = handler.order.value
            #expect(order.filter { $0.hasPrefix("even") } == ["even 2", "even 4", "even 6"], "\(order)")
            #expect(order.filter { $0.hasPrefix("odd") } == ["odd 1", "odd 3", "odd 5"], "\(order)")
        }
    }

    /// A handler still running when the lease ends is stopped and its attempt counted failed, so
    /// this server never works on a job another may have taken back; the runner goes on.
    @Test(arguments: Engine.available)
    func aJobThatOutlivesItsLeaseIsStoppedAndCountedFailed(engine: Engine) async throws {
        let stuck = RecordingJobHandler(kind: "test.stuck") { job in
            if job.key == "stuck" { try await Task.sleep(for: .seconds(3600)) }
        }
        let configure = JobTesting.configure([stuck])
        try await TestServer.withRouter(engine, configure: { config in
            configure(&config)
            config.jobs.lease = .milliseconds(300)
        }) { server, _ in
            try await JobTesting.enqueue(server, stuck, key: "stuck")
            try await eventually { try await JobTesting.job(server, "stuck").lastError != nil }
            let job = try await JobTesting.job(server, "stuck")
            #expect(job.lastError == "the job ran longer than its lease (0.3 seconds) and was stopped", "\(job)")
            #expect(job.status == .pending && job.attempts == 1, "tried again later")
            try await JobTesting.enqueue(server, stuck, key: "quick")
            try await eventually { try await JobTesting.job(server, "quick").status == .done }
        }
    }

    /// A job stored by one server instance runs on the next one; a job a server claimed and never
    /// finished (it died) is taken back once its lease ran out, and run.
    @Test(arguments: Engine.available)
    func jobsSurviveARestartAndALostServersJobIsTakenBack(engine: Engine) async throws {
        let clock = TestClock()
        let directory = try makeTemporaryDirectory("kith-jobs-restart").path
        let scratch = try await PostgresScratch.create(for: engine)
        var logger = Logger(label: "kith-test")
        logger.logLevel = .critical
        // The second server makes its ids as server 1: the first one's are in the database.
        func config(_ handlers: [any JobHandler], server: UInt32) -> ServerConfig {
            var config = ServerConfig()
            config.dataDirectory = directory
            config.port = 0
            config.clock = clock.clock
            config.ids = .sequential(server: server)
            config.accounts.bcryptCost = 4
            config.databaseURL = scratch?.url
            JobTesting.configure(handlers)(&config)
            return config
        }
        let waiting = RecordingJobHandler(kind: "test.waiting")
        let held = RecordingJobHandler(kind: "test.held")
        do {
            // The first server has no handler for these kinds: what it stores waits for the next.
            let first = try await buildApplication(config([], server: 0), logger: logger)
            try await first.application.test(.router) { _ in
                let repository = JobRepository(database: first.database, ids: .system)
                let now = clock.now.epochMillis
                try await repository.enqueue(
                    NewJob(kind: waiting.kind, key: "waiting", runAt: now, retry: waiting.retry), now: now)
                try await repository.enqueue(
                    NewJob(kind: held.kind, key: "held", runAt: now, retry: held.retry), now: now)
                let claimed = try await repository.claimDue(
                    kinds: [held.kind], runner: "runner-that-died", now: now, leaseUntil: now + 600_000, limit: 1)
                #expect(claimed.map(\.key) == ["held"])
            }
        }
        do {
            let second = try await buildApplication(config([waiting, held], server: 1), logger: logger)
            try await second.application.test(.router) { _ in
                let repository = JobRepository(database: second.database, ids: .system)
                try await eventually { waiting.callsByKey == ["waiting": 1] }
                clock.advance(by: 599)
                try await second.jobsCaughtUp()
                #expect(held.totalCalls == 0, "its lease still runs")
                #expect(try await repository.job(key: "held")?.claimedBy == "runner-that-died")

                clock.advance(by: 2)
                try await eventually { held.callsByKey == ["held": 1] }
                try await eventually { try await repository.job(key: "held")?.status == .done }
                let job = try #require(try await repository.job(key: "held"))
                #expect(job.attempts == 2, "the lost attempt counts")
            }
        }
        await scratch?.drop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    @Test func backoffDoublesUpToItsCapWithoutOverflowing() {
        let policy = JobRetryPolicy(maxAttempts: 100, firstDelay: .seconds(30), maximumDelay: .seconds(1800))
        #expect(
            (1...8).map { policy.delayMillis(afterAttempt: $0) / 1000 } == [30, 60, 120, 240, 480, 960, 1800, 1800])
        #expect(policy.delayMillis(afterAttempt: 100) == 1_800_000)
        #expect(policy.delayMillis(afterAttempt: .max) == 1_800_000)
        #expect(JobRetryPolicy(maxAttempts: 0, firstDelay: .seconds(1), maximumDelay: .seconds(1)).maxAttempts == 1)
        #expect(
            JobRetryPolicy(maxAttempts: .max, firstDelay: .seconds(1), maximumDelay: .seconds(1)).maxAttempts == 100)
        let huge = JobRetryPolicy(
            maxAttempts: 5, firstDelay: .seconds(Int64.max / 2), maximumDelay: .seconds(Int64.max))
        #expect(huge.delayMillis(afterAttempt: 40) > 0)
    }
}

/// Records the order its jobs ran in; a job's sequence is the first word of its key. Each waits
/// a little, so jobs run together would finish out of order.
private struct SequencedJobHandler: JobHandler {
    let kind = "test.sequenced"
    let retry = JobTesting.policy
    let order = Locked<[String]>([])

    func sequence(of job: Job) -> String? { String(job.key.split(separator: " ")[0]) }

    func run(_ job: Job) async throws {
        // Later ones wait less: run at once, they would finish first.
        let step = Int(job.key.split(separator: " ")[1]) ?? 0
        try await Task.sleep(for: .milliseconds(5 * (7 - step)))
        order.withLock { $0.append(job.key) }
    }
}
