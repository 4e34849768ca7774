import Foundation
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// A job handler for tests: counts its calls per job key, then does what the test says (sleep,
/// throw on some attempts…).
final class RecordingJobHandler: JobHandler {
    let kind: String
    let retry: JobRetryPolicy
    private let calls = Locked<[String: Int]>([:])
    private let behaviour: @Sendable (Job) async throws -> Void

    init(
        kind: String, retry: JobRetryPolicy = JobTesting.policy,
        behaviour: @escaping @Sendable (Job) async throws -> Void = { _ in }
    ) {
        self.kind = kind
        self.retry = retry
        self.behaviour = behaviour
    }

    func run(_ job: Job) async throws {
        calls.withLock { $0[job.key, default: 0] += 1 }
        try await behaviour(job)
    }

    /// Calls so far, by job key.
    var callsByKey: [String: Int] { calls.value }
    var totalCalls: Int { calls.value.values.reduce(0, +) }
}

struct HandlerFailure: Error, CustomStringConvertible {
    let description: String
}

enum JobTesting {
    /// 10 s doubling to at most 25 s, four attempts.
    static let policy = JobRetryPolicy(maxAttempts: 4, firstDelay: .seconds(10), maximumDelay: .seconds(25))

    /// Runners that look for due jobs every 20 ms, with `handlers` besides the server's own.
    static func configure(_ handlers: [any JobHandler]) -> @Sendable (inout ServerConfig) -> Void {
        { config in
            config.jobs.pollInterval = .milliseconds(20)
            config.jobs.additionalHandlers = handlers
        }
    }

    static func repository(_ server: TestServer) -> JobRepository {
        JobRepository(database: server.app.database, ids: .system)
    }

    /// Stores a job of `handler`'s kind due `delay` seconds after the server's now; whether it was added.
    @discardableResult
    static func enqueue(_ server: TestServer, _ handler: RecordingJobHandler, key: String, in delay: TimeInterval = 0)
        async throws -> Bool
    {
        let now = server.clock.now.epochMillis
        return try await repository(server).enqueue(
            NewJob(kind: handler.kind, key: key, runAt: now + Int64(delay * 1000), retry: handler.retry), now: now)
    }

    /// The status of the job with `key`, nil while there is none: for waiting on a job the server
    /// enqueues itself.
    static func status(_ server: TestServer, _ key: String) async throws -> JobStatus? {
        try await repository(server).job(key: key)?.status
    }

    static func job(_ server: TestServer, _ key: String) async throws -> StoredJob {
        try #require(try await repository(server).job(key: key), "no job \(key)")
    }
}

extension KithServerApp {
    /// Returns once the job runner has made a whole pass over the queue that began after this call
    /// (it is woken for one): by then every job due by the server's clock has run and its outcome
    /// is stored. What has not run then was not due, so a job that runs late fails the test; a
    /// pause would only have made a late job less likely to be seen.
    func jobsCaughtUp(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let after = jobPasses.begun
        jobWake.signal()
        try await eventually(sourceLocation: sourceLocation) { jobPasses.lastFinished > after }
    }
}
