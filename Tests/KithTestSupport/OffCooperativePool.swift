import Dispatch

/// Runs blocking work (reading a pipe to its end, waiting for a child) on a Dispatch thread. Swift
/// concurrency has one thread per core, two on the CI machine: a test that blocks one of them
/// starves every in-process server of the run, and their clients time out.
public func offCooperativePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}
