import NIOCore

/// Runs a task's work on one event loop: the loop that owns the pooled PostgreSQL connection a
/// request is using. PostgresNIO answers every statement on that loop, so a task that prefers it
/// resumes there without waking another thread; on the default executor each statement would hop
/// from the request's thread to the loop and back (docs/storage.md, "PostgreSQL, request by request").
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// One executor per event loop of a group, made once.
struct EventLoopTaskExecutors: Sendable {
    private let executors: [ObjectIdentifier: EventLoopTaskExecutor]

    init(_ group: any EventLoopGroup) {
        var executors: [ObjectIdentifier: EventLoopTaskExecutor] = [:]
        for loop in group.makeIterator() {
            executors[ObjectIdentifier(loop)] = EventLoopTaskExecutor(loop)
        }
        self.executors = executors
    }

    /// The executor of `loop`, or nil for a loop outside the group (the task then keeps its own).
    func executor(for loop: any EventLoop) -> EventLoopTaskExecutor? {
        executors[ObjectIdentifier(loop)]
    }
}
