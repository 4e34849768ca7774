import Foundation
import SQLKit

/// Storage of the `jobs` table. Each method is one transaction, so two runners (two servers on one
/// PostgreSQL) never both take a job, and a job's outcome is recorded whole or not at all.
struct JobRepository: Sendable {
    let database: KithDatabase
    let ids: IdentifierSource

    /// Adds the job unless one with its key exists (whatever its status); whether it was added.
    @discardableResult
    func enqueue(_ job: NewJob, now: Int64) async throws -> Bool {
        let id = ids.text()
        return try await database.transaction { sql in try await Self.insert(job, id: id, now: now, sql: sql) }
    }

    /// `enqueue` inside a transaction someone else holds, so the job commits with what made it
    /// (a reminder's notices with the reminder's write). Whether it was added.
    @discardableResult
    static func insert(_ job: NewJob, id: String, now: Int64, sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            INSERT INTO jobs (id, kind, key, payload, status, run_at, attempts, max_attempts, created_at)
            VALUES (\(bind: id), \(bind: job.kind), \(bind: job.key), \(bind: job.payload),
                    \(bind: JobStatus.pending.rawValue), \(bind: job.runAt), 0, \(bind: job.retry.maxAttempts),
                    \(bind: now))
            ON CONFLICT (key) DO NOTHING
            """
        ).run()
        // The row with the key is ours only if it carries our id.
        let stored = try await sql.raw("SELECT id FROM jobs WHERE key = \(bind: job.key)")
            .first(decodingColumn: "id", as: String.self)
        return stored == id
    }

    /// When the next pending job of `kinds` comes due, if any: the runner sleeps until then, so a
    /// notice due in 2 s is not left for the next poll.
    func nextRunAt(kinds: [String]) async throws -> Int64? {
        guard !kinds.isEmpty else { return nil }
        return try await database.run { sql in
            // ORDER BY … LIMIT 1, not MIN(): with the kind filter MIN() read every pending job
            // (400,000 family notices: most of the runner's time); this walks `jobs_due` in order
            // and stops at the first of a kind it runs.
            try await sql.raw(
                """
                SELECT run_at FROM jobs
                WHERE status = \(bind: JobStatus.pending.rawValue) AND kind \(in: kinds)
                ORDER BY run_at LIMIT 1
                """
            ).first(decodingColumn: "run_at", as: Int64.self)
        }
    }

    /// Takes up to `limit` of the oldest due pending jobs of `kinds` for `runner` until `leaseUntil`,
    /// counting the attempt now (so a job that kills its server still runs out of attempts). On
    /// PostgreSQL `FOR UPDATE SKIP LOCKED` lets concurrent runners each take different jobs without
    /// waiting; on SQLite the transaction is the one writer. One transaction for the batch: a
    /// notice every few milliseconds would otherwise cost a commit each just to be claimed.
    func claimDue(kinds: [String], runner: String, now: Int64, leaseUntil: Int64, limit: Int) async throws -> [Job] {
        guard !kinds.isEmpty, limit > 0 else { return [] }
        let engine = database.engine
        return try await database.transaction { sql in
            let lock = SQLQueryString(engine == .postgres ? " FOR UPDATE SKIP LOCKED" : "")
            let rows = try await sql.raw(
                """
                SELECT * FROM jobs
                WHERE status = \(bind: JobStatus.pending.rawValue) AND run_at <= \(bind: now)
                    AND kind \(in: kinds)
                ORDER BY run_at, id LIMIT \(bind: limit)\(lock)
                """
            ).records(JobRow.self)
            guard !rows.isEmpty else { return [] }
            // By id alone: this transaction holds the rows (PostgreSQL locked them above; SQLite has
            // one writer). With `AND status = 'pending'` SQLite's planner chose the status index
            // over 64 ids and read every pending job for each claim (400,000 notices: the runner
            // fell minutes behind).
            try await sql.raw(
                """
                UPDATE jobs SET status = \(bind: JobStatus.running.rawValue), attempts = attempts + 1,
                    claimed_by = \(bind: runner), claimed_until = \(bind: leaseUntil)
                WHERE id \(in: rows.map(\.id))
                """
            ).run()
            return rows.map { $0.job(attempts: $0.attempts + 1) }
        }
    }

    /// Marks every one of `jobs` that `runner` still holds done, in one statement (jobs whose lease
    /// ran out and were taken back keep their newer state).
    func completeAll(_ jobs: [Job], runner: String, now: Int64) async throws {
        guard !jobs.isEmpty else { return }
        try await database.run { sql in
            try await sql.raw(
                """
                UPDATE jobs SET status = \(bind: JobStatus.done.rawValue), finished_at = \(bind: now), last_error = NULL,
                    claimed_by = NULL, claimed_until = NULL
                WHERE id \(in: jobs.map(\.id)) AND status = \(bind: JobStatus.running.rawValue)
                    AND claimed_by = \(bind: runner)
                """
            ).run()
        }
    }

    /// Records a failed attempt: pending again after the policy's delay (or at `notBefore`, when
    /// the handler was told to come back later than that), or `failed` when the attempts are used
    /// up or `permanent` says retrying cannot help. Whether it will run again.
    @discardableResult
    func fail(
        _ job: Job, runner: String, error: String, retry: JobRetryPolicy, permanent: Bool, notBefore: Int64? = nil,
        now: Int64
    ) async throws -> Bool {
        try await database.transaction { sql in
            guard try await isHeld(job, by: runner, sql: sql) else { return false }
            let message = String(error.prefix(Self.errorLength))
            if permanent || job.attempts >= job.maxAttempts {
                try await sql.raw(
                    """
                    UPDATE jobs SET status = \(bind: JobStatus.failed.rawValue), last_error = \(bind: message),
                        finished_at = \(bind: now), claimed_by = NULL, claimed_until = NULL
                    WHERE id = \(bind: job.id)
                    """
                ).run()
                return false
            }
            let (backoff, overflow) = now.addingReportingOverflow(retry.delayMillis(afterAttempt: job.attempts))
            let runAt = max(backoff, notBefore ?? backoff)
            try await sql.raw(
                """
                UPDATE jobs SET status = \(bind: JobStatus.pending.rawValue), last_error = \(bind: message),
                    run_at = \(bind: overflow ? Int64.max : runAt), claimed_by = NULL, claimed_until = NULL
                WHERE id = \(bind: job.id)
                """
            ).run()
            return true
        }
    }

    /// Puts a job that did not run back to pending at `until`, giving back the attempt its claim
    /// counted (`JobPostponed`). Whether this runner still held it.
    @discardableResult
    func postpone(_ job: Job, runner: String, until: Int64) async throws -> Bool {
        try await database.transaction { sql in
            guard try await isHeld(job, by: runner, sql: sql) else { return false }
            try await sql.raw(
                """
                UPDATE jobs SET status = \(bind: JobStatus.pending.rawValue), run_at = \(bind: until),
                    attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END,
                    claimed_by = NULL, claimed_until = NULL
                WHERE id = \(bind: job.id)
                """
            ).run()
            return true
        }
    }

    /// Takes back jobs left `running` past their lease (their server died or hung): pending again at
    /// once, or `failed` when that attempt was the last. How many were taken back.
    @discardableResult
    func reclaimExpired(now: Int64) async throws -> Int {
        let engine = database.engine
        return try await database.transaction { sql in
            let lock = SQLQueryString(engine == .postgres ? " FOR UPDATE SKIP LOCKED" : "")
            let expired = try await sql.raw(
                """
                SELECT * FROM jobs
                WHERE status = \(bind: JobStatus.running.rawValue) AND claimed_until < \(bind: now)\(lock)
                """
            ).records(JobRow.self)
            for row in expired {
                let error = "the lease of \(row.claimedBy ?? "a runner") ran out before the job finished"
                let status = row.attempts >= row.maxAttempts ? JobStatus.failed : .pending
                try await sql.raw(
                    """
                    UPDATE jobs SET status = \(bind: status.rawValue), last_error = \(bind: error),
                        finished_at = \(bind: status == .failed ? now : Int64?.none), claimed_by = NULL, claimed_until = NULL
                    WHERE id = \(bind: row.id)
                    """
                ).run()
            }
            return expired.count
        }
    }

    /// Deletes jobs that finished (done or failed) before `cutoff`; how many. Keys of recent jobs
    /// stay, which is all dedupe needs: a key is reused only by work scheduled around the same time.
    @discardableResult
    func deleteFinished(before cutoff: Int64) async throws -> Int {
        try await database.transaction { sql in
            let rows = try await sql.raw(
                """
                SELECT id FROM jobs WHERE status IN (\(bind: JobStatus.done.rawValue), \(bind: JobStatus.failed.rawValue))
                    AND finished_at < \(bind: cutoff)
                """
            ).all(decodingColumn: "id", as: String.self)
            for batch in stride(from: 0, to: rows.count, by: 500) {
                let ids = Array(rows[batch..<min(batch + 500, rows.count)])
                try await sql.raw("DELETE FROM jobs WHERE id \(in: ids)").run()
            }
            return rows.count
        }
    }

    /// When a job of `kind` whose key starts with `keyPrefix` was last enqueued, if ever (the reset
    /// mail's "one per account every two minutes"). `keyPrefix` is the caller's own text (a kind and an
    /// id), never a person's input, so it holds no `LIKE` wildcard.
    func lastEnqueued(kind: String, keyPrefix: String) async throws -> Int64? {
        try await database.run { sql in
            try await sql.raw(
                "SELECT MAX(created_at) AS last FROM jobs WHERE kind = \(bind: kind) AND key LIKE \(bind: keyPrefix + "%")"
            ).first(decodingColumn: "last", as: Int64?.self) ?? nil
        }
    }

    /// The job with `key`, whatever its status: for tests and operators.
    func job(key: String) async throws -> StoredJob? {
        try await database.run { sql in
            try await sql.raw("SELECT * FROM jobs WHERE key = \(bind: key)").record(JobRow.self)?.stored
        }
    }

    /// Every job of `kind`, oldest first.
    func jobs(kind: String) async throws -> [StoredJob] {
        try await database.run { sql in
            try await sql.raw("SELECT * FROM jobs WHERE kind = \(bind: kind) ORDER BY created_at, id")
                .records(JobRow.self).map(\.stored)
        }
    }

    /// Whether `runner` still holds the job; on PostgreSQL the row stays locked until the caller's
    /// transaction ends, so a concurrent reclaim skips it instead of racing the outcome.
    private func isHeld(_ job: Job, by runner: String, sql: any SQLDatabase) async throws -> Bool {
        let lock = SQLQueryString(database.engine == .postgres ? " FOR UPDATE" : "")
        return try await sql.raw(
            """
            SELECT id FROM jobs
            WHERE id = \(bind: job.id) AND status = \(bind: JobStatus.running.rawValue) AND claimed_by = \(bind: runner)\(lock)
            """
        ).first() != nil
    }

    /// Errors are kept for a person to read, not as a log: the start is enough.
    private static let errorLength = 2000
}

/// A row of `jobs` as stored, whatever its status.
struct StoredJob: Sendable, Hashable {
    let id: String
    let kind: String
    let key: String
    let payload: String
    let status: JobStatus?
    let runAt: Int64
    let attempts: Int
    let maxAttempts: Int
    let lastError: String?
    let claimedBy: String?
    let claimedUntil: Int64?
    let createdAt: Int64
    let finishedAt: Int64?
}

private struct JobRow: Decodable {
    var id: String
    var kind: String
    var key: String
    var payload: String
    var status: String
    var runAt: Int64
    var attempts: Int
    var maxAttempts: Int
    var lastError: String?
    var claimedBy: String?
    var claimedUntil: Int64?
    var createdAt: Int64
    var finishedAt: Int64?

    enum CodingKeys: String, CodingKey {
        case id, kind, key, payload, status, attempts
        case runAt = "run_at"
        case maxAttempts = "max_attempts"
        case lastError = "last_error"
        case claimedBy = "claimed_by"
        case claimedUntil = "claimed_until"
        case createdAt = "created_at"
        case finishedAt = "finished_at"
    }

    func job(attempts: Int) -> Job {
        Job(id: id, kind: kind, key: key, payload: payload, attempts: attempts, maxAttempts: maxAttempts, runAt: runAt)
    }

    var stored: StoredJob {
        StoredJob(
            id: id, kind: kind, key: key, payload: payload, status: JobStatus(rawValue: status), runAt: runAt,
            attempts: attempts, maxAttempts: maxAttempts, lastError: lastError, claimedBy: claimedBy,
            claimedUntil: claimedUntil, createdAt: createdAt, finishedAt: finishedAt)
    }
}
