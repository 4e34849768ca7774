import Foundation
import HummingbirdTesting
import KithCore
import KithTestSupport
import Testing

@testable import KithServer

/// Two servers on one PostgreSQL database share the jobs table: each job runs on exactly one.
@Suite("Jobs across servers", .enabled(if: Engine.adminURL != nil, "KITH_TEST_DATABASE_URL is not set"))
struct JobsAcrossServersTests {
    @Test func twoServersRunEachJobExactlyOnce() async throws {
        // One handler per server, each taking a little time, so both runners are busy at once.
        let onFirst = RecordingJobHandler(kind: "test.once") { _ in try await Task.sleep(for: .milliseconds(5)) }
        let onSecond = RecordingJobHandler(kind: "test.once") { _ in try await Task.sleep(for: .milliseconds(5)) }
        try await TestServer.withLiveServer(.postgres, configure: JobTesting.configure([onFirst])) { first, _, _ in
            let shared = try #require(first.config.databaseURL)
            try await TestServer.withLiveServer(
                .postgres, sharedDatabaseURL: shared, configure: JobTesting.configure([onSecond])
            ) {
                second, _, _ in
                let keys = (1...60).map { "job \($0)" }
                for (index, key) in keys.enumerated() {
                    // Half enqueued through each server: either may have woken first.
                    try await JobTesting.enqueue(index.isMultiple(of: 2) ? first : second, onFirst, key: key)
                }
                try await eventually { onFirst.totalCalls + onSecond.totalCalls >= keys.count }
                // A job run twice would have run again by now: both runners have made a pass since.
                try await first.app.jobsCaughtUp()
                try await second.app.jobsCaughtUp()
                var calls = onFirst.callsByKey
                for (key, count) in onSecond.callsByKey { calls[key, default: 0] += count }
                #expect(calls == Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) }), "each job ran once")
                let stored = try await JobTesting.repository(first).jobs(kind: "test.once")
                #expect(stored.count == keys.count)
                #expect(stored.allSatisfy { $0.status == .done && $0.attempts == 1 })
            }
        }
    }

    /// Claims racing from two connection pools (two servers' storage), eight at a time: no job is
    /// taken twice and none is left behind (`FOR UPDATE SKIP LOCKED`).
    @Test func concurrentClaimsNeverTakeAJobTwice() async throws {
        try await TestServer.withRouter(.postgres) { server, _ in
            let other = try await KithDatabase.open(
                .postgres(url: try #require(server.config.databaseURL)), logger: .init(label: "kith-test"))
            let repositories = [JobTesting.repository(server), JobRepository(database: other, ids: .system)]
            let now = server.clock.now.epochMillis
            for index in 1...80 {
                try await repositories[0].enqueue(
                    NewJob(kind: "test.race", key: "race \(index)", runAt: now, retry: JobTesting.policy), now: now)
            }
            let claimed: [String]
            do {
                claimed = try await Self.claimAll(repositories, now: now)
            } catch {
                // A pool released without closing traps.
                await other.close()
                throw error
            }
            await other.close()
            #expect(claimed.count == 80)
            #expect(Set(claimed).count == 80, "no job claimed twice")
        }
    }

    private static func claimAll(_ repositories: [JobRepository], now: Int64) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var mine: [String] = []
                    // A few at a time, as the runner claims its batches.
                    while true {
                        let jobs = try await repositories[worker % 2].claimDue(
                            kinds: ["test.race"], runner: "worker \(worker)", now: now, leaseUntil: now + 60_000, limit: 3)
                        if jobs.isEmpty { break }
                        mine += jobs.map(\.key)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }
}
