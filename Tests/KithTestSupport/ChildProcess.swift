import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Running helper programs (python SMTP servers, `kith`) from tests without hanging or orphaning them.
extension Process {
    /// Starts the process with an empty signal mask. Swift concurrency's worker threads block most
    /// signals, and posix_spawn hands the calling thread's mask to the child: a child started from a
    /// test on Linux would never see SIGTERM. `run()` spawns on the calling thread without suspending,
    /// so clearing the mask for just that call is enough.
    public func runWithDefaultSignalMask() throws {
        var none = sigset_t()
        sigemptyset(&none)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }

    /// Waits until the process has exited, at most `limit`; false if it is still running. Polls,
    /// unlike `waitUntilExit()`, so a child that ignores SIGTERM cannot hang the test run.
    @discardableResult
    public func waitForExit(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning {
            if ContinuousClock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// SIGTERM now, SIGKILL later if the process is still running after `grace`, so a stuck child
    /// cannot outlive the tests. Never blocks: it is called from `defer` in async tests, where
    /// waiting would hold one of the few cooperative threads.
    public func stop(grace: Duration = .seconds(5)) {
        guard isRunning else { return }
        terminate()
        let pid = processIdentifier
        let seconds = Double(grace.components.seconds) + Double(grace.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            // kill(pid, 0) tells whether it still exists; the PID can't be reused before Foundation reaps it.
            if kill(pid, 0) == 0 { kill(pid, SIGKILL) }
        }
    }
}
