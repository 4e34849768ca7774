import NIOCore
import NIOPosix

/// Where a server's Swift tasks run. By default Swift keeps a thread pool of its own beside NIO's
/// event loops, the threads that read and write every socket, and a request on PostgreSQL wakes
/// another thread at each step: read on a loop, handled in the pool, a statement answered on a
/// loop, back to the pool, the answer written on a loop. On the event loops a task stays on the
/// loop it woke on, and a request goes from its socket to PostgreSQL and back without a thread
/// switch (docs/storage.md, "What each change bought"). Only for PostgreSQL, where a request waits only on
/// sockets: a SQLite statement holds its thread, and on a loop it would hold up every connection
/// the loop serves.
public enum ServerThreads {
    /// Makes NIO's event loops Swift's global executor. Call once, first thing in the process,
    /// before any task runs. False when the runtime does not allow it: tasks then run on Swift's
    /// pool, as they do in the tests that run a server inside their own process.
    @discardableResult
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
