import Foundation

/// How the job runner works (docs/jobs.md). The defaults are for production; tests poll faster
/// and move the clock instead of waiting for retries.
public struct JobSettings: Sendable {
    /// How often the runner looks for due jobs when nothing woke it (a job enqueued by this server
    /// wakes it at once; one enqueued by another server, or a retry coming due, waits for this).
    public var pollInterval: Duration = .seconds(5)
    /// How long a claimed job belongs to its runner. A job still running after this is stopped by
    /// its runner and taken back by any runner, so a server that died mid-job loses it only this long.
    public var lease: Duration = .seconds(600)
    /// Due jobs one runner claims at once (one transaction), and how many of them run at once:
    /// handlers wait on the database most of the time, so several in flight keep it busy.
    public var batchSize = 64
    public var concurrency = 8
    /// Finished jobs (done or failed) are deleted this long after they finished.
    public var keepFinished: Duration = .seconds(30 * 86_400)
    /// Handlers besides the server's own: tests register counting handlers here.
    var additionalHandlers: [any JobHandler] = []

    public init() {}
}
