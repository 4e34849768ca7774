import Foundation

/// The code for one kind of job. A handler is registered with the runner by its `kind`
/// (`Application+build.swift`); the runner calls `run` for each claimed job of that kind.
///
/// A job may run more than once: when its server dies after the work but before the job is marked
/// done, or when it outlives its lease. So `run` must be safe to repeat (deleting what is already
/// deleted, a mail sent twice at worst), which every handler says how it is.
protocol JobHandler: Sendable {
    /// The name stored in `jobs.kind`, e.g. `nutrition.retention`. Never change a kind that has
    /// shipped: rows of the old name would wait forever for a handler.
    var kind: String { get }
    /// How often and how patiently a failed job of this kind is tried again.
    var retry: JobRetryPolicy { get }
    /// Does the work. Throwing retries the job by `retry`; `JobFailure.permanent` fails it at once.
    func run(_ job: Job) async throws
    /// A job to enqueue whenever a server starts (a recurring job's first run), or nil.
    func jobAtStart(now: Date) throws -> NewJob?
    /// Jobs of one claimed batch with the same sequence run one after another, in the order they
    /// came due (a reminder's 2- and 1-minute notices arrive in that order); nil runs it alongside
    /// any other.
    func sequence(of job: Job) -> String?
}

extension JobHandler {
    func jobAtStart(now: Date) throws -> NewJob? { nil }
    func sequence(of job: Job) -> String? { nil }
}
